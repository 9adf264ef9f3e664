import { useState, type ReactNode } from 'react';
import type { DependencyHealth, FailedJob, QueueHealth, RefreshFailure, StripeEventAttention, SystemHealth, WorkerHeartbeat } from '@life/contracts';
import { CircleCheck, CircleX, Clock, Database, LoaderCircle, RotateCcw, Server, Tag, Trash2, type LucideIcon } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { AdminTable, TableMessageRow, Td, Th, Tr } from '@/components/layout/admin-table';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiErrorMessage } from '@/lib/api-client';
import { formatDateTime, formatNumber, formatRelativeTime, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useDiscardQueueJob } from '../api/discard-queue-job';
import { SYSTEM_HEALTH_REFRESH_MS, useSystemHealth } from '../api/get-system-health';
import { useRetryQueueJob, type QueueJobRef } from '../api/retry-queue-job';
import { useDismissStripeEvent, useRetryStripeEvent } from '../api/stripe-events';

/** 'up'/'down' as text and an icon, never the colour alone. */
function StatusBadge({ up, upLabel, downLabel }: { up: boolean; upLabel: string; downLabel: string }) {
  const Icon = up ? CircleCheck : CircleX;
  return (
    <span
      className={cn(
        'inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold',
        up ? 'bg-success/10 text-[#166534]' : 'bg-destructive/10 text-[#991b1b]',
      )}
      data-status={up ? 'up' : 'down'}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {up ? upLabel : downLabel}
    </span>
  );
}

function SummaryCard({ icon: Icon, title, children, testId }: { icon: LucideIcon; title: string; children: ReactNode; testId: string }) {
  return (
    <div className="grid content-start gap-2 rounded-2xl border bg-card p-4 shadow-soft" data-testid={testId}>
      <h4 className="flex items-center gap-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        {title}
      </h4>
      {children}
    </div>
  );
}

function BlockTitle({ children, id }: { children: ReactNode; id: string }) {
  return (
    <h4 id={id} className="text-base font-semibold text-foreground">
      {children}
    </h4>
  );
}

function useFormatters() {
  const { t } = useTranslation();
  return {
    number: (value: number) => formatNumber(value),
    milliseconds: (value: number) => t('admin.health.ms', { value: formatNumber(value, { maximumFractionDigits: 1 }) }),
    dateTime: (value: string | number) => formatDateTime(value),
    time: (value: string) => formatTime(value),
    ago: (value: string) => {
      const seconds = Math.max(0, Math.round((Date.now() - Date.parse(value)) / 1000));
      return seconds < 90 ? formatRelativeTime(-seconds, 'second') : formatRelativeTime(-Math.round(seconds / 60), 'minute');
    },
    /** The two largest units: "3 d 4 h", "12 min 5 s". */
    duration: (totalSeconds: number) => {
      const units: [string, number][] = [
        ['d', Math.floor(totalSeconds / 86_400)],
        ['h', Math.floor((totalSeconds % 86_400) / 3600)],
        ['min', Math.floor((totalSeconds % 3600) / 60)],
        ['s', Math.floor(totalSeconds % 60)],
      ];
      const first = units.findIndex(([, count]) => count > 0);
      if (first === -1) return t('admin.health.duration.s', { count: 0 });
      return units
        .slice(first, first + 2)
        .filter(([, count]) => count > 0)
        .map(([unit, count]) => t(`admin.health.duration.${unit}`, { count }))
        .join(' ');
    },
  };
}

/**
 * The live part of 'Salud del Sistema': asks the server every few seconds while it is on screen
 * and keeps the last answer visible if one poll fails.
 */
export function SystemStatusView() {
  const { t } = useTranslation();
  const health = useSystemHealth();
  const format = useFormatters();

  if (health.isPending) {
    return (
      <p className="py-10 text-center text-sm text-muted-foreground" role="status">
        {t('admin.health.loading')}
      </p>
    );
  }

  return (
    <div className="grid gap-8" data-testid="system-status">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="system-health-updated">
          <span
            aria-hidden="true"
            className={cn('size-2 shrink-0 rounded-full', health.isError ? 'bg-amber-500' : 'animate-pulse bg-success motion-reduce:animate-none')}
          />
          {health.data
            ? t('admin.health.updated', { time: format.time(health.data.checkedAt), seconds: SYSTEM_HEALTH_REFRESH_MS / 1000 })
            : t('admin.health.neverLoaded')}
        </p>
        {health.data && <StatusBadge up={health.data.status === 'ok'} upLabel={t('admin.health.overall.ok')} downLabel={t('admin.health.overall.error')} />}
      </div>

      {health.isError && (
        <Alert variant="error" data-testid="system-health-error">
          {health.data ? t('admin.health.errors.refresh') : t('admin.health.errors.load')}
          {apiErrorMessage(health.error) && <span className="block text-xs opacity-80">{apiErrorMessage(health.error)}</span>}
        </Alert>
      )}

      {health.data && <HealthReport health={health.data} />}
    </div>
  );
}

function HealthReport({ health }: { health: SystemHealth }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <DependencyCard testId="health-database" icon={Database} title={t('admin.health.database')} dependency={health.database} />
        <DependencyCard testId="health-redis" icon={Server} title={t('admin.health.redis')} dependency={health.redis} />
        <SummaryCard testId="health-version" icon={Tag} title={t('admin.health.version')}>
          <p className="font-mono text-lg font-semibold break-all text-foreground">{health.version}</p>
        </SummaryCard>
        <SummaryCard testId="health-uptime" icon={Clock} title={t('admin.health.uptime')}>
          <p className="text-lg font-semibold text-foreground tabular-nums">{format.duration(health.uptimeSeconds)}</p>
        </SummaryCard>
      </div>

      <QueuesBlock queues={health.queues} prefix={health.queuePrefix} />
      <WorkersBlock workers={health.workers} />
      <RefreshFailuresBlock failures={health.refreshFailures} />
      <StripeEventsBlock events={health.stripeEvents} />
      <FailedJobsBlock queues={health.queues} />
    </>
  );
}

function DependencyCard({ icon, title, dependency, testId }: { icon: LucideIcon; title: string; dependency: DependencyHealth; testId: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const up = dependency.status === 'up';
  return (
    <SummaryCard testId={testId} icon={icon} title={title}>
      <StatusBadge up={up} upLabel={t('admin.health.up')} downLabel={t('admin.health.down')} />
      <p className="text-sm text-muted-foreground" data-testid={`${testId}-latency`}>
        {up && dependency.latencyMs !== null
          ? t('admin.health.latency', { value: format.milliseconds(dependency.latencyMs) })
          : // The probe's own words are English for operators (`/api/health`); the panel says it in the reader's language.
            t('admin.health.noAnswer')}
      </p>
    </SummaryCard>
  );
}

const QUEUE_COLUMNS = ['waiting', 'active', 'delayed', 'failed'] as const;

function QueuesBlock({ queues, prefix }: { queues: QueueHealth[]; prefix: string }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <section className="grid gap-3" aria-labelledby="health-queues-title">
      <div className="grid gap-1">
        <BlockTitle id="health-queues-title">{t('admin.health.queues.title')}</BlockTitle>
        <p className="text-sm text-foreground" data-testid="health-queue-prefix">
          <Trans
            i18nKey="admin.health.queues.prefix"
            values={{ prefix }}
            components={{ code: <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.8125rem] break-all" /> }}
          />
        </p>
        <p className="text-sm text-muted-foreground">{t('admin.health.queues.prefixHint')}</p>
      </div>
      <AdminTable data-testid="health-queues" aria-labelledby="health-queues-title">
        <thead>
          <tr>
            <Th>{t('admin.health.queues.columns.name')}</Th>
            {QUEUE_COLUMNS.map((state) => (
              <Th key={state} className="text-right">
                {t(`admin.health.queues.columns.${state}`)}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {queues.length === 0 ? (
            <TableMessageRow colSpan={1 + QUEUE_COLUMNS.length}>{t('admin.health.queues.empty')}</TableMessageRow>
          ) : (
            queues.map((queue) => (
              <Tr key={queue.name} data-testid="health-queue-row" data-queue={queue.name}>
                <Td className="font-mono text-sm font-medium whitespace-nowrap">{queue.name}</Td>
                {queue.counts ? (
                  QUEUE_COLUMNS.map((state) => {
                    const count = queue.counts![state];
                    return (
                      <Td
                        key={state}
                        className={cn('text-right tabular-nums', state === 'failed' && count > 0 && 'font-semibold text-[#991b1b]')}
                        data-testid={`health-queue-${state}`}
                      >
                        {state === 'failed' && count > 0 && <CircleX aria-hidden="true" className="mr-1 inline size-3.5 align-[-2px]" />}
                        {format.number(count)}
                      </Td>
                    );
                  })
                ) : (
                  <Td colSpan={QUEUE_COLUMNS.length} className="text-right text-muted-foreground">
                    {t('admin.health.unavailable')}
                  </Td>
                )}
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>
    </section>
  );
}

function WorkersBlock({ workers }: { workers: WorkerHeartbeat[] | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <section className="grid gap-3" aria-labelledby="health-workers-title">
      <div className="grid gap-1">
        <BlockTitle id="health-workers-title">{t('admin.health.workers.title')}</BlockTitle>
        <p className="text-sm text-muted-foreground">{t('admin.health.workers.hint')}</p>
      </div>
      {workers === null ? (
        <p className="text-sm text-muted-foreground">{t('admin.health.workers.unavailable')}</p>
      ) : workers.length === 0 ? (
        <Alert variant="warning" data-testid="health-workers-none">
          {t('admin.health.workers.none')}
        </Alert>
      ) : (
        <AdminTable data-testid="health-workers" aria-labelledby="health-workers-title" className="min-w-[28rem]">
          <thead>
            <tr>
              <Th>{t('admin.health.workers.columns.host')}</Th>
              <Th className="text-right">{t('admin.health.workers.columns.pid')}</Th>
              <Th>{t('admin.health.workers.columns.lastBeat')}</Th>
            </tr>
          </thead>
          <tbody>
            {workers.map((worker) => (
              <Tr key={worker.id} data-testid="health-worker-row">
                <Td className="font-mono text-sm break-all">
                  <span className="inline-flex items-center gap-1.5">
                    <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-success" />
                    {worker.host}
                  </span>
                </Td>
                <Td className="text-right font-mono text-sm tabular-nums">{worker.pid ?? '—'}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">
                  {worker.lastBeatAt ? (
                    <time dateTime={worker.lastBeatAt} title={format.dateTime(worker.lastBeatAt)}>
                      {format.ago(worker.lastBeatAt)}
                    </time>
                  ) : (
                    '—'
                  )}
                </Td>
              </Tr>
            ))}
          </tbody>
        </AdminTable>
      )}
    </section>
  );
}

function RefreshFailuresBlock({ failures }: { failures: RefreshFailure[] | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const COLUMNS = 5;
  return (
    <section className="grid gap-3" aria-labelledby="health-refresh-title">
      <BlockTitle id="health-refresh-title">{t('admin.health.refresh.title')}</BlockTitle>
      <AdminTable data-testid="health-refresh-failures" aria-labelledby="health-refresh-title" className="min-w-[44rem]">
        <thead>
          <tr>
            <Th>{t('admin.health.refresh.columns.service')}</Th>
            <Th className="text-right">{t('admin.health.refresh.columns.failing')}</Th>
            <Th className="text-right">{t('admin.health.refresh.columns.needsReconnect')}</Th>
            <Th>{t('admin.health.refresh.columns.lastFailure')}</Th>
            <Th>{t('admin.health.refresh.columns.lastError')}</Th>
          </tr>
        </thead>
        <tbody>
          {failures === null ? (
            <TableMessageRow colSpan={COLUMNS}>{t('admin.health.refresh.unavailable')}</TableMessageRow>
          ) : failures.length === 0 ? (
            <TableMessageRow colSpan={COLUMNS}>
              <span className="inline-flex items-center gap-1.5">
                <CircleCheck aria-hidden="true" className="size-4 text-success" />
                {t('admin.health.refresh.empty')}
              </span>
            </TableMessageRow>
          ) : (
            failures.map((failure) => (
              <Tr key={failure.service} data-testid="health-refresh-row">
                <Td className="font-medium whitespace-nowrap">{failure.service}</Td>
                <Td className="text-right tabular-nums">{format.number(failure.failing)}</Td>
                <Td className="text-right tabular-nums">{format.number(failure.needsReconnect)}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={failure.lastFailureAt}>{format.dateTime(failure.lastFailureAt)}</time>
                </Td>
                <Td className="min-w-[14rem] text-xs break-words text-muted-foreground">{failure.lastError ?? '—'}</Td>
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>
    </section>
  );
}

/** Stripe webhook events that gave up after their attempts: kept until an admin retries or dismisses them. */
function StripeEventsBlock({ events }: { events: StripeEventAttention[] | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const retry = useRetryStripeEvent();
  const dismiss = useDismissStripeEvent();
  const [notice, setNotice] = useState<string | null>(null);
  const lastError = retry.error ?? dismiss.error;
  const busy = (id: string) => (retry.isPending && retry.variables === id) || (dismiss.isPending && dismiss.variables === id);
  const COLUMNS = 5;

  function handleRetry(id: string) {
    setNotice(null);
    dismiss.reset();
    retry.mutate(id, { onSuccess: () => setNotice(t('admin.health.stripeEvents.retried', { id })) });
  }

  function handleDismiss(id: string) {
    if (!window.confirm(t('admin.health.stripeEvents.confirmDismiss', { id }))) return;
    setNotice(null);
    retry.reset();
    dismiss.mutate(id, { onSuccess: () => setNotice(t('admin.health.stripeEvents.dismissed', { id })) });
  }

  return (
    <section className="grid gap-3" aria-labelledby="health-stripe-title" data-testid="health-stripe-events">
      <BlockTitle id="health-stripe-title">{t('admin.health.stripeEvents.title')}</BlockTitle>
      <p className="text-sm text-muted-foreground">{t('admin.health.stripeEvents.intro')}</p>
      {lastError && (
        <Alert variant="error" data-testid="health-stripe-action-error">
          {apiErrorMessage(lastError) ?? t('admin.health.stripeEvents.actionFailed')}
        </Alert>
      )}
      {notice && !lastError && (
        <Alert variant="success" data-testid="health-stripe-action-done">
          {notice}
        </Alert>
      )}
      <AdminTable pinLastColumn aria-labelledby="health-stripe-title" className="min-w-[62rem] table-fixed">
        <thead>
          <tr>
            <Th className="w-[20rem]">{t('admin.health.stripeEvents.columns.event')}</Th>
            <Th>{t('admin.health.stripeEvents.columns.error')}</Th>
            <Th className="w-[6rem] text-right">{t('admin.health.stripeEvents.columns.attempts')}</Th>
            <Th className="w-[10rem]">{t('admin.health.stripeEvents.columns.failedAt')}</Th>
            <Th className="w-[6.5rem] text-right sm:w-[16.5rem]">{t('admin.health.stripeEvents.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {events === null ? (
            <TableMessageRow colSpan={COLUMNS}>{t('admin.health.stripeEvents.unavailable')}</TableMessageRow>
          ) : events.length === 0 ? (
            <TableMessageRow colSpan={COLUMNS}>
              <span className="inline-flex items-center gap-1.5" data-testid="health-stripe-empty">
                <CircleCheck aria-hidden="true" className="size-4 text-success" />
                {t('admin.health.stripeEvents.empty')}
              </span>
            </TableMessageRow>
          ) : (
            events.map((event) => (
              <Tr key={event.id} data-testid="health-stripe-event" data-event={event.id}>
                <Td>
                  <span className="block font-mono text-sm font-medium break-words">{event.type}</span>
                  <span className="block font-mono text-xs break-all text-muted-foreground">{event.id}</span>
                </Td>
                <Td className="text-xs break-words text-muted-foreground" data-testid="health-stripe-event-error">
                  {event.lastError ?? '—'}
                </Td>
                <Td className="text-right tabular-nums">{format.number(event.attempts)}</Td>
                <Td className="text-muted-foreground">
                  <time dateTime={event.failedAt}>{format.dateTime(event.failedAt)}</time>
                </Td>
                <Td className="text-right whitespace-nowrap">
                  <div className="flex items-center justify-end gap-1">
                    <Button variant="outline" size="sm" disabled={busy(event.id)} onClick={() => handleRetry(event.id)} data-testid="health-stripe-retry">
                      {busy(event.id) ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
                      {/* On a phone the pinned column keeps to its icons (the name stays for screen readers). */}
                      <span className="sr-only sm:not-sr-only">{t('admin.health.stripeEvents.retry')}</span>
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
                      disabled={busy(event.id)}
                      onClick={() => handleDismiss(event.id)}
                      data-testid="health-stripe-dismiss"
                    >
                      <Trash2 aria-hidden="true" />
                      <span className="sr-only sm:not-sr-only">{t('admin.health.stripeEvents.dismiss')}</span>
                    </Button>
                  </div>
                </Td>
              </Tr>
            ))
          )}
        </tbody>
      </AdminTable>
    </section>
  );
}

function FailedJobsBlock({ queues }: { queues: QueueHealth[] }) {
  const { t } = useTranslation();
  const retry = useRetryQueueJob();
  const discard = useDiscardQueueJob();
  const [notice, setNotice] = useState<string | null>(null);
  const withFailures = queues.filter((queue) => queue.failed.length > 0);
  const lastError = retry.error ?? discard.error;
  const busy = (job: QueueJobRef) =>
    (retry.isPending && retry.variables?.queue === job.queue && retry.variables.id === job.id) ||
    (discard.isPending && discard.variables?.queue === job.queue && discard.variables.id === job.id);

  function handleRetry(job: QueueJobRef) {
    setNotice(null);
    discard.reset();
    retry.mutate(job, { onSuccess: () => setNotice(t('admin.health.jobs.retried', { ...job })) });
  }

  function handleDiscard(job: QueueJobRef) {
    if (!window.confirm(t('admin.health.jobs.confirmDiscard', { ...job }))) return;
    setNotice(null);
    retry.reset();
    discard.mutate(job, { onSuccess: () => setNotice(t('admin.health.jobs.discarded', { ...job })) });
  }

  return (
    <section className="grid gap-3" aria-labelledby="health-jobs-title" data-testid="health-failed-jobs">
      <BlockTitle id="health-jobs-title">{t('admin.health.jobs.title')}</BlockTitle>
      {lastError && (
        <Alert variant="error" data-testid="health-job-action-error">
          {apiErrorMessage(lastError) ?? t('admin.health.jobs.actionFailed')}
        </Alert>
      )}
      {notice && !lastError && (
        <Alert variant="success" data-testid="health-job-action-done">
          {notice}
        </Alert>
      )}
      {withFailures.length === 0 ? (
        <p className="flex items-center gap-1.5 rounded-2xl border bg-card px-4 py-6 text-sm text-muted-foreground shadow-soft" data-testid="health-jobs-empty">
          <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-success" />
          {t('admin.health.jobs.empty')}
        </p>
      ) : (
        withFailures.map((queue) => <FailedJobsTable key={queue.name} queue={queue} busy={busy} onRetry={handleRetry} onDiscard={handleDiscard} />)
      )}
    </section>
  );
}

function FailedJobsTable({
  queue,
  busy,
  onRetry,
  onDiscard,
}: {
  queue: QueueHealth;
  busy: (job: QueueJobRef) => boolean;
  onRetry: (job: QueueJobRef) => void;
  onDiscard: (job: QueueJobRef) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const total = queue.counts?.failed ?? queue.failed.length;
  const titleId = `health-jobs-${queue.name}`;
  return (
    <div className="grid gap-2" data-testid="health-failed-queue" data-queue={queue.name}>
      <p id={titleId} className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-mono font-medium text-foreground">{queue.name}</span>
        <span className="text-muted-foreground">
          {total > queue.failed.length
            ? t('admin.health.jobs.showingNewest', { shown: queue.failed.length, total: format.number(total) })
            : t('admin.health.jobs.count', { count: total })}
        </span>
      </p>
      {/* Fixed columns: every queue's table lines up, and long ids or reasons wrap instead of squeezing the rest. */}
      <AdminTable pinLastColumn aria-labelledby={titleId} className="min-w-[58rem] table-fixed">
        <thead>
          <tr>
            <Th className="w-[12rem]">{t('admin.health.jobs.columns.job')}</Th>
            <Th>{t('admin.health.jobs.columns.reason')}</Th>
            <Th className="w-[6rem] text-right">{t('admin.health.jobs.columns.attempts')}</Th>
            <Th className="w-[10rem]">{t('admin.health.jobs.columns.failedAt')}</Th>
            <Th className="w-[16.5rem] text-right">{t('admin.health.jobs.columns.actions')}</Th>
          </tr>
        </thead>
        <tbody>
          {queue.failed.map((job) => (
            <FailedJobRow key={job.id} queue={queue.name} job={job} busy={busy({ queue: queue.name, id: job.id })} onRetry={onRetry} onDiscard={onDiscard} />
          ))}
        </tbody>
      </AdminTable>
    </div>
  );
}

function FailedJobRow({
  queue,
  job,
  busy,
  onRetry,
  onDiscard,
}: {
  queue: string;
  job: FailedJob;
  busy: boolean;
  onRetry: (job: QueueJobRef) => void;
  onDiscard: (job: QueueJobRef) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const ref = { queue, id: job.id };
  const failedAt = job.finishedOn ?? job.timestamp;
  return (
    <Tr data-testid="health-failed-job" data-job={job.id}>
      <Td>
        <span className="block font-medium break-words" data-testid="health-failed-job-name">
          {job.name}
        </span>
        <span className="block font-mono text-xs break-all text-muted-foreground" data-testid="health-failed-job-id">
          {job.id}
        </span>
      </Td>
      <Td className="text-xs break-words text-muted-foreground" data-testid="health-failed-job-reason">
        {job.failedReason || '—'}
      </Td>
      <Td className="text-right tabular-nums">{format.number(job.attemptsMade)}</Td>
      <Td className="text-muted-foreground">
        <time dateTime={new Date(failedAt).toISOString()} title={t('admin.health.jobs.addedAt', { date: format.dateTime(job.timestamp) })}>
          {format.dateTime(failedAt)}
        </time>
      </Td>
      <Td className="text-right whitespace-nowrap">
        <div className="flex items-center justify-end gap-1">
          <Button variant="outline" size="sm" disabled={busy} onClick={() => onRetry(ref)} data-testid="health-job-retry">
            {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <RotateCcw aria-hidden="true" />}
            {t('admin.health.jobs.retry')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="text-muted-foreground hover:bg-destructive/10 hover:text-destructive"
            disabled={busy}
            onClick={() => onDiscard(ref)}
            data-testid="health-job-discard"
          >
            <Trash2 aria-hidden="true" />
            {t('admin.health.jobs.discard')}
          </Button>
        </div>
      </Td>
    </Tr>
  );
}
