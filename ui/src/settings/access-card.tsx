// Settings → Users and access: who you are signed in as, and the way to the Users and Audit log pages for those
// whose role lets them in (the server checks again).
import { Badge } from '../components/badge.js';
import { Card } from '../components/card.js';
import type { CurrentUser } from '../data/api.gen.js';
import { useResource } from '../data/use-resource.js';
import { Link } from '../shell/router.js';
import { describeGrants } from './user-roles.js';

export function AccessCard() {
  const me = useResource<CurrentUser>('/api/me', 'who you are');
  const u = me.data;
  if (!u) return null;
  const owner = u.instance_role === 'owner';
  const admin = owner || u.instance_role === 'admin';
  const grants = describeGrants(u.projects);
  return (
    <Card title="Users and access" description={u.email === null ? 'Logged in with the dashboard token: the owner.' : `Signed in as ${u.email}.`}>
      <div class="setting-row">
        <div class="setting-text">
          <span class="setting-label">Your role {u.instance_role ? <Badge tone={owner ? 'accent' : 'neutral'}>{u.instance_role}</Badge> : <Badge>none on the instance</Badge>}</span>
          <p class="setting-description">{grants ? `In projects: ${grants}.` : 'The same in every project.'} Viewers read; members also run evals; admins also change keys and settings; owners also manage users.</p>
        </div>
        {admin && (
          <div class="access-links">
            {owner && <Link class="button button-secondary" href="/settings/users">Users</Link>}
            <Link class="button button-secondary" href="/settings/audit">Audit log</Link>
          </div>
        )}
      </div>
    </Card>
  );
}
