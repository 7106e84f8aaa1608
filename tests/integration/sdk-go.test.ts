// `vigil sdk --lang go`: the generated package builds with `go build` (and is gofmt-clean), and a driver program
// calls a live API through it (net/http only); the requests the API got and the typed results are asserted with the
// scenario shared with TypeScript and Python (tests/support/sdk-api.ts). Without Go, outside CI, it skips and says
// why; in CI (CI set) Go is installed by .ci/run and the test runs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from '../support/tmp.js';
import { HOSTILE_SPEC, assertScenario, generate, run, startUsersApi } from '../support/sdk-api.js';

const hasGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;

const DRIVER = `package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"

	"usersapi"
)

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func main() {
	ctx := context.Background()
	client := usersapi.NewClient(os.Args[1], http.Header{"Authorization": {"Bearer sdk-token"}})
	limit, sortBy, from, active := int64(2), "name", "2026-01-01T00:00:00Z", true
	page, err := client.ListUsers(ctx, &usersapi.ListUsersQuery{Limit: &limit, SortBy: &sortBy, Tag: []string{"a", "b c"}, From: &from, Active: &active})
	must(err)
	first := page.Items[0]
	city, csv, vip, no := "Bergen", "text/csv", "vip", false
	created, err := client.CreateUser(ctx, &usersapi.NewUser{Email: "new@example.com", Address: &usersapi.NewUserAddress{City: &city}, ContentType: &csv, Class: &vip, X2fa: &no})
	must(err)
	got, err := client.GetUser(ctx, "a/b c")
	must(err)
	missing := map[string]any{"status": 0, "error": ""}
	_, err = client.GetUser(ctx, "missing")
	var apiErr *usersapi.APIError
	if errors.As(err, &apiErr) {
		var problem usersapi.Problem
		must(apiErr.DecodeBody(&problem))
		missing = map[string]any{"status": apiErr.StatusCode, "error": problem.Error}
	}
	name, role := "Ann B.", "admin"
	updated, err := client.UpdateUser(ctx, "u-1", &usersapi.UpdateUserRequest{Name: &name, Role: &role})
	must(err)
	deleteErr := client.DeleteUser(ctx, "u-1")
	order, err := client.GetUsersByUserIDOrdersByOrderID(ctx, "u 1", 42, &usersapi.GetUsersByUserIdOrdersByOrderIdQuery{Expand: []string{"lines"}})
	must(err)
	out, err := json.Marshal(map[string]any{
		"list": map[string]any{"count": len(page.Items), "next": page.Next, "email": first.Email, "city": first.Address.City, "lat": *first.Address.Geo.Lat,
			"contentType": *first.ContentType, "class": *first.Class, "twoFa": *first.X2fa, "userName": *first.UserName, "userName2": *first.UserName2, "name": first.Name},
		"created": map[string]any{"id": created.ID, "email": created.Email, "city": created.Address.City, "contentType": *created.ContentType, "class": *created.Class, "twoFa": *created.X2fa},
		"got":     map[string]any{"id": got.ID, "street": *got.Address.Street},
		"missing": missing,
		"updated": map[string]any{"name": *updated.Name, "role": *updated.Role},
		"deleted": deleteErr == nil,
		"order":   map[string]any{"id": order.ID, "status": order.Status, "total": order.Total, "note": order.Note, "sku": order.Lines[0].Sku, "qty": order.Lines[0].Qty},
	})
	must(err)
	fmt.Println(string(out))
}
`;

/** go with one build cache for this file's tests (the standard library compiles once) and no network: the client needs no module. */
const cache = tempDir('vigil-sdk-gocache-');
const goEnv = (dir: string) => ({ GOCACHE: join(cache.path, 'build'), GOPATH: join(dir, '.gopath'), GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' });
test.after(() => cache.cleanup());

if (!hasGo && !process.env.CI) {
  console.log('sdk-go: skipped, `go` is not installed (apt-get install golang-go); in CI (CI set) this test runs');
} else {
  test('the Go client builds with go build, is gofmt-clean, and calls a live API', async () => {
    const work = tempDir('vigil-sdk-go-');
    const api = await startUsersApi();
    try {
      const printed = await generate('go', work.path);
      assert.match(printed, /usersapi\.go/);
      assert.match(printed, /go\.mod/);
      const source = readFileSync(join(work.path, 'usersapi.go'), 'utf8');
      assert.match(source, /X2fa +\*bool +`json:"2fa,omitempty"`/);
      assert.match(source, /ContentType +\*string +`json:"content-type,omitempty"`/);
      const env = goEnv(work.path);
      await run('go', ['build', './...'], { cwd: work.path, env });
      assert.is(await run('gofmt', ['-l', '.'], { cwd: work.path, env }), '', 'gofmt would change nothing');
      mkdirSync(join(work.path, 'cmd/driver'), { recursive: true });
      writeFileSync(join(work.path, 'cmd/driver/main.go'), DRIVER);
      await run('go', ['build', '-o', 'driver', './cmd/driver'], { cwd: work.path, env });
      const out = await run(join(work.path, 'driver'), [`http://127.0.0.1:${api.port}`], { cwd: work.path });
      assertScenario(api.received, out);
    } finally {
      api.close();
      work.cleanup();
    }
  });

  test('names that collide or are keywords still give a package that builds and vets', async () => {
    const work = tempDir('vigil-sdk-go-');
    try {
      writeFileSync(join(work.path, 'hostile.json'), JSON.stringify(HOSTILE_SPEC));
      await generate('go', work.path, join(work.path, 'hostile.json'), ['--package', 'hostile']);
      const env = goEnv(work.path);
      await run('go', ['vet', './...'], { cwd: work.path, env });
      const source = readFileSync(join(work.path, 'hostile.go'), 'utf8');
      // The path parameter `body` and the body itself, and `ctx`, are different arguments.
      assert.match(source, /GetThing\(ctx context\.Context, bodyValue string, self string, ctxValue string, class string, body \*Promise2\)/);
      assert.match(source, /Properties that cannot be a Go json tag are left out: ""/);
    } finally {
      work.cleanup();
    }
  });
}

test.run();
