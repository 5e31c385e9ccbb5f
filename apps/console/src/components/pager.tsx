/** The buttons to the page before and the page after, each disabled at its end (pages count from 1). */
export function Pager({ page, pages, onPage, previousLabel, nextLabel }: { page: number; pages: number; onPage: (page: number) => void; previousLabel: string; nextLabel: string }) {
  return (
    <>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previousLabel}
      </button>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {nextLabel}
      </button>
    </>
  );
}
