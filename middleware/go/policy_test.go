package vigil

import (
	"fmt"
	"testing"
)

func TestTheDecisionCacheIsBoundedAndEvictsTheOldest(t *testing.T) {
	c := newDecisionCache(3)
	d := []*routeDecision{{}, {}, {}, {}}
	for i := 0; i < 4; i++ {
		c.set("GET", fmt.Sprintf("/p%d", i), d[i])
	}
	if c.size() != 3 {
		t.Fatalf("size %d, want 3", c.size())
	}
	if c.get("GET", "/p0") != nil {
		t.Error("the oldest entry is still cached")
	}
	for i := 1; i < 4; i++ {
		if c.get("GET", fmt.Sprintf("/p%d", i)) != d[i] {
			t.Errorf("/p%d lost", i)
		}
	}
	if c.get("POST", "/p1") != nil {
		t.Error("a decision is shared across methods")
	}
}

func TestEverySpellingOfARouteGetsOneDecisionAndQueriesNeverFillTheCache(t *testing.T) {
	loaded, err := loadConfig(writeConfig(t, testConfig), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	p := loaded.policy
	admin := p.decide("GET", "/admin/users")
	for _, spelling := range []string{"/ADMIN/users", "/admin;x/users", "/%61dmin/users", "//admin//users/", "/x/../admin/users", "/admin%C0%AFusers"} {
		if got := p.decide("GET", spelling); got != admin {
			t.Errorf("%s: decision %v, want the one of /admin/users %v", spelling, got.matchedRules, admin.matchedRules)
		}
	}
	if !admin.capturesNothing() {
		t.Errorf("admin captures something: %+v", admin)
	}
	before := p.byReceived.size()
	for i := 0; i < 100; i++ {
		p.decide("GET", fmt.Sprintf("/admin/users?i=%d", i))
	}
	if p.byReceived.size() != before {
		t.Errorf("queries filled the cache: %d entries, was %d", p.byReceived.size(), before)
	}
	// An ambiguous path (more layers of encoding than the fold decodes) meets every rule of its method.
	if d := p.decide("GET", "/x/%25252525252525252561"); len(d.matchedRules) != 3 {
		t.Errorf("ambiguous path matched %v", d.matchedRules)
	}
}
