import type { DayItem } from '@life/contracts';
import { answerObject, dayItem, httpsUrl, idOf, inLanguage, instant, list, onToday, record, text, type Json } from './untrusted-json.js';
import { ProviderCallError, type ProviderCall, type ViewContext, type ViewFetcher } from './types.js';

/* GitHub (REST API, https://api.github.com). */

const SERVICE = 'github';
const EVENTS = 30;
const SHOWN = 10;
/** Pushes whose commit message is looked up (github.com's events no longer carry the commits). */
const LOOKUPS = 5;

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const SHA = /^[0-9a-f]{40}$/;

const PUSHED_TO: Record<string, string> & { en: string } = {
  en: 'Push to {branch}',
  es: 'Push a {branch}',
  de: 'Push nach {branch}',
  fr: 'Push vers {branch}',
  it: 'Push su {branch}',
  pt: 'Push para {branch}',
  ja: '{branch} へのプッシュ',
  zh: '推送到 {branch}',
};

/** A commit message's first line. */
const firstLine = (message: unknown): string | null => {
  const line = text(typeof message === 'string' ? message.slice(0, 2000).split(/\r?\n/, 1)[0] : null);
  return line || null;
};

interface Push {
  item: DayItem;
  repo: string;
  head: string | null;
}

function contribution(value: unknown, context: ViewContext, pushes: Push[]): DayItem | null {
  const event = record(value);
  const id = idOf(event?.id);
  const at = instant(event?.created_at);
  const repoName = text(record(event?.repo)?.name, 201);
  const payload = record(event?.payload);
  if (!event || !id || !at || !repoName || !REPO.test(repoName) || !payload) return null;
  const repoUrl = `https://github.com/${repoName}`;
  const base = { id, service: SERVICE, subtitle: repoName, at };

  if (event.type === 'PushEvent') {
    const head = typeof payload.head === 'string' && SHA.test(payload.head) ? payload.head : null;
    // GitHub Enterprise (and github.com before late 2025) list up to 20 commits, the newest last.
    const commits = list(payload.commits).map(record);
    const last = commits.at(-1);
    const message = firstLine(last?.message);
    const ref = typeof payload.ref === 'string' ? payload.ref.replace(/^refs\/(heads|tags)\//, '') : '';
    const branch = text(ref, 100) || repoName;
    const sha = typeof last?.sha === 'string' && SHA.test(last.sha) ? last.sha : head;
    const item = dayItem({
      ...base,
      kind: 'push',
      title: message ?? inLanguage(PUSHED_TO, context.language).replace('{branch}', branch),
      url: sha ? `${repoUrl}/commit/${sha}` : repoUrl,
    });
    if (!message) pushes.push({ item, repo: repoName, head });
    return item;
  }

  if ((event.type === 'PullRequestEvent' || event.type === 'IssuesEvent') && payload.action === 'opened') {
    const isPull = event.type === 'PullRequestEvent';
    const subject = record(isPull ? payload.pull_request : payload.issue);
    const rawNumber = subject?.number ?? payload.number;
    const number = typeof rawNumber === 'number' && Number.isSafeInteger(rawNumber) && rawNumber > 0 ? rawNumber : null;
    const title = text(subject?.title) || (number ? `#${number}` : null);
    if (!title) return null;
    return dayItem({
      ...base,
      kind: isPull ? 'pull_request' : 'issue',
      title,
      url: httpsUrl(subject?.html_url) ?? (number ? `${repoUrl}/${isPull ? 'pull' : 'issues'}/${number}` : repoUrl),
    });
  }
  return null;
}

/** The pushes' messages, from their head commit (a commit we may not read, or gone, keeps the branch as title). */
async function lookUpMessages(call: ProviderCall, pushes: Push[]): Promise<void> {
  await Promise.all(
    pushes
      .filter((push) => push.head)
      .slice(0, LOOKUPS)
      .map(async (push) => {
        let answer: unknown;
        try {
          answer = await call({ path: `repos/${push.repo}/commits/${push.head}` });
        } catch (error) {
          // 404 (a private repository without the repo scope), 409, 422 (force-pushed away), 403 (no access).
          if (error instanceof ProviderCallError && (error.failure === 'refused' || error.failure === 'missing_scope')) return;
          throw error;
        }
        const message = firstLine(record(record(answer)?.commit)?.message);
        if (message) push.item.title = message;
      }),
  );
}

function openPullRequest(value: unknown): DayItem | null {
  const issue = record(value);
  const id = idOf(issue?.id);
  const title = text(issue?.title);
  if (!issue || !id || !title) return null;
  const repository = typeof issue.repository_url === 'string' ? /\/repos\/([^/]+\/[^/]+)\/?$/.exec(issue.repository_url)?.[1] : undefined;
  return dayItem({
    id,
    service: SERVICE,
    kind: 'pull_request',
    title,
    subtitle: repository && REPO.test(repository) ? repository : null,
    url: httpsUrl(issue.html_url),
    at: instant(issue.updated_at),
  });
}

/**
 * GitHub: the person's latest contributions (`users/{login}/events`: pushes, pull requests and
 * issues opened) and their open pull requests (`search/issues`). Works with the catalog's
 * `read:user user:email` for public activity (and private activity the token can see).
 */
export const githubView: ViewFetcher = {
  service: SERVICE,
  // A user token may make 5,000 requests an hour, search 30 a minute, and the events feed asks to
  // be polled no more than every 60 s (X-Poll-Interval). A fetch is at most 3 + 5 calls: every
  // 10 minutes is ~48 calls an hour, a hundredth of the budget the person's other apps share.
  intervalMs: 10 * 60_000,
  async fetch(call, context) {
    const user = answerObject(await call({ path: 'user' }));
    const login = typeof user.login === 'string' && LOGIN.test(user.login) ? user.login : null;
    if (!login) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');

    const [eventsAnswer, searchAnswer] = await Promise.all([
      call({ path: `users/${login}/events`, query: { per_page: String(EVENTS) } }),
      call({ path: 'search/issues', query: { q: `is:pr is:open author:${login}`, sort: 'updated', order: 'desc', per_page: String(SHOWN) } }),
    ]);
    if (!Array.isArray(eventsAnswer)) throw new ProviderCallError('provider_down', 200, null, 'unexpected answer');
    const search: Json = answerObject(searchAnswer);

    const pushes: Push[] = [];
    const contributions = eventsAnswer
      .map((event) => contribution(event, context, pushes))
      .filter((item): item is DayItem => item !== null)
      .sort((a, b) => Date.parse(b.at!) - Date.parse(a.at!))
      .slice(0, SHOWN);
    await lookUpMessages(
      call,
      pushes.filter((push) => contributions.includes(push.item)),
    );

    const openPullRequests = list(search.items)
      .map(openPullRequest)
      .filter((item): item is DayItem => item !== null)
      .slice(0, SHOWN);

    return {
      headline: contributions[0] ?? openPullRequests[0] ?? null,
      sections: [
        { key: 'contributions', items: contributions },
        { key: 'open_pull_requests', items: openPullRequests },
      ],
      timeline: onToday(contributions, context),
    };
  },
};
