// `vigil sdk --lang python`: the generated module passes `python3 -m py_compile`, and a driver program calls a live
// API through it (urllib only); the requests the API got and the typed results (dataclasses) are asserted with the
// scenario shared with TypeScript and Go (tests/support/sdk-api.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/tmp.js';
import { HOSTILE_SPEC, assertScenario, generate, run, startUsersApi } from '../support/sdk-api.js';

const DRIVER = `import json
import sys

from users_api import ApiError, NewUser, NewUserAddress, UpdateUserRequest, User, UsersApiClient

client = UsersApiClient(sys.argv[1], headers={"Authorization": "Bearer sdk-token"})
page = client.list_users(limit=2, sort_by="name", tag=["a", "b c"], from_="2026-01-01T00:00:00Z", active=True)
first = page.items[0]
assert isinstance(first, User) and first.address.geo is not None
created = client.create_user(NewUser(email="new@example.com", address=NewUserAddress(city="Bergen"), content_type="text/csv", class_="vip", field_2fa=False))
got = client.get_user("a/b c")
missing = {"status": 0, "error": ""}
try:
    client.get_user("missing")
except ApiError as error:
    missing = {"status": error.status, "error": error.body["error"]}
updated = client.update_user("u-1", UpdateUserRequest(name="Ann B.", role="admin"))
deleted = client.delete_user("u-1")
order = client.get_users_by_user_id_orders_by_order_id("u 1", 42, expand=["lines"])
print(json.dumps({
    "list": {"count": len(page.items), "next": page.next, "email": first.email, "city": first.address.city, "lat": first.address.geo.lat,
             "contentType": first.content_type, "class": first.class_, "twoFa": first.field_2fa, "userName": first.user_name,
             "userName2": first.user_name2, "name": first.name},
    "created": {"id": created.id, "email": created.email, "city": created.address.city, "contentType": created.content_type,
                "class": created.class_, "twoFa": created.field_2fa},
    "got": {"id": got.id, "street": got.address.street},
    "missing": missing,
    "updated": {"name": updated.name, "role": updated.role},
    "deleted": deleted is None,
    "order": {"id": order.id, "status": order.status, "total": order.total, "note": order.note, "sku": order.lines[0].sku, "qty": order.lines[0].qty},
}))
`;

test('the Python client compiles, and calls a live API with urllib', async () => {
  const work = tempDir('vigil-sdk-py-');
  const api = await startUsersApi();
  try {
    const printed = await generate('python', work.path);
    assert.match(printed, /users_api\.py/);
    const source = readFileSync(join(work.path, 'users_api.py'), 'utf8');
    assert.not.match(source, /^(import|from) (?!__future__|json|urllib|dataclasses|typing)/m, 'the standard library only');
    await run('python3', ['-m', 'py_compile', 'users_api.py'], { cwd: work.path });
    writeFileSync(join(work.path, 'driver.py'), DRIVER);
    const out = await run('python3', ['driver.py', `http://127.0.0.1:${api.port}`], { cwd: work.path });
    assertScenario(api.received, out);
  } finally {
    api.close();
    work.cleanup();
  }
});

test('names that collide or are keywords still give a module that imports and round-trips its dataclasses', async () => {
  const work = tempDir('vigil-sdk-py-');
  try {
    writeFileSync(join(work.path, 'hostile.json'), JSON.stringify(HOSTILE_SPEC));
    await generate('python', work.path, join(work.path, 'hostile.json'), ['--package', 'hostile']);
    await run('python3', ['-m', 'py_compile', 'hostile.py'], { cwd: work.path });
    const wire = { from: 'f', import: 'i', self: 's', data: 'd', to_dict: 't', type: 'ty', '2fa': 'x', 'a b': 'ab', 'a-b': 'a-b', a_b: 'a_b', cls: 'c', '': 'e' };
    const out = await run('python3', ['-c', `import json, sys, hostile
p = hostile.Promise2.from_dict(json.loads(sys.argv[1]))
print(json.dumps({"back": p.to_dict(), "from": p.from_, "import": p.import_, "twofa": p.field_2fa}))`, JSON.stringify(wire)], { cwd: work.path });
    assert.equal(JSON.parse(out), { back: wire, from: 'f', import: 'i', twofa: 'x' });
    // A field of several JSON types decodes an object into its dataclass and leaves a string a string.
    const mixed = await run('python3', ['-c', `import json, hostile
a = hostile.None2.from_dict({"next": None, "mixed": {"a": 1}, "maybeList": [{"n": 2.5}]})
b = hostile.None2.from_dict({"next": None, "mixed": "text"})
print(json.dumps([type(a.mixed).__name__, a.mixed.a, type(a.maybe_list[0]).__name__, b.mixed, a.to_dict()]))`], { cwd: work.path });
    assert.equal(JSON.parse(mixed), ['None2Mixed', 1, 'None2MaybeListItem', 'text', { next: null, mixed: { a: 1 }, maybeList: [{ n: 2.5 }] }]);
  } finally {
    work.cleanup();
  }
});

test.run();
