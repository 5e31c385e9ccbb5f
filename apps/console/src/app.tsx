export function App() {
  return <h1>Platform console</h1>;
}
