import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readComposeFile } from './compose-file';

const composePath = resolve(__dirname, '../../../docker-compose.yml');

/** The replica set member as mongosh's `rs` and `db` show it to the healthcheck's script. */
interface Member {
  initiated: boolean;
  writablePrimary: boolean;
}

class Quit {
  constructor(readonly code: number) {}
}

/**
 * Runs a `mongosh --eval` script against a stand-in of mongosh's shell API and answers the exit
 * status mongosh would give: quit(code)'s code, or 0 when the script ends without quit(),
 * whatever it printed or returned (the healthcheck that counted a member without a primary).
 */
function exitStatus(script: string, member: Member): { status: number; initiatedWith: unknown[] } {
  const initiatedWith: unknown[] = [];
  const rs = {
    status() {
      if (!member.initiated) throw Object.assign(new Error('no replset config has been received'), { codeName: 'NotYetInitialized' });
      return { ok: 1, set: 'rs0', myState: member.writablePrimary ? 1 : 2 };
    },
    initiate(config: unknown) {
      initiatedWith.push(config);
      member.initiated = true;
      return { ok: 1 };
    },
  };
  const db = { hello: () => ({ isWritablePrimary: member.writablePrimary, setName: member.initiated ? 'rs0' : undefined }) };
  const quit = (code = 0) => {
    throw new Quit(code);
  };
  try {
    runInNewContext(script, { rs, db, quit });
    return { status: 0, initiatedWith };
  } catch (error) {
    if (error instanceof Quit) return { status: error.code, initiatedWith };
    throw error;
  }
}

async function healthcheckScript(): Promise<string> {
  const file = await readComposeFile(composePath);
  const test = file.services.mongo!.healthcheck!.test as string[];
  expect(test.slice(0, 4)).toEqual(['CMD', 'mongosh', '--quiet', '--eval']);
  return test[4]!;
}

describe("docker-compose.yml's MongoDB healthcheck", () => {
  it('initiates the single-node replica set on a fresh member and fails until it is primary', async () => {
    const { status, initiatedWith } = exitStatus(await healthcheckScript(), { initiated: false, writablePrimary: false });
    expect(status).toBe(1);
    expect(initiatedWith).toEqual([{ _id: 'rs0', members: [{ _id: 0, host: 'mongo:27017' }] }]);
  });

  it('fails while the initiated member has not become primary, without initiating again', async () => {
    expect(exitStatus(await healthcheckScript(), { initiated: true, writablePrimary: false })).toEqual({ status: 1, initiatedWith: [] });
  });

  it('passes once the member is the writable primary', async () => {
    expect(exitStatus(await healthcheckScript(), { initiated: true, writablePrimary: true })).toEqual({ status: 0, initiatedWith: [] });
  });
});
