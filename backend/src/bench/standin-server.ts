import { startServiceStandIns } from '@life/test-support/standins/services';

/**
 * The upstream of the `oauth-proxy` scenario: the GitHub stand-in of `@life/test-support`
 * (`libs/test-support/src/standins/services.mjs`, plain node:http, answering at once), in its own child process
 * so that the load generator's process serves nothing (as with the baseline and the app).
 *
 * Started by oauth.scenarios.ts with an IPC channel: it reports `{ row }` (the ready
 * PUT /api/external-services/:id body for the `github` catalog row) once listening, answers
 * `'user-calls'` with `{ userCalls }` (who-am-I calls served since the last ask) and exits on
 * SIGTERM or when the parent goes away.
 */
const standIns = await startServiceStandIns({ families: ['github'] });
let served = 0;

const stop = () => {
  void standIns.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);

process.on('message', (message) => {
  if (message !== 'user-calls' || !process.send) return;
  // The stand-in records every who-am-I call; count them and forget them (bounded memory).
  const calls = standIns.github?.userCalls ?? [];
  served += calls.length;
  calls.length = 0;
  process.send({ userCalls: served });
});

if (process.send) process.send({ row: standIns.rows.github });
else console.log(JSON.stringify(standIns.rows.github));
