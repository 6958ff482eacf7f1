import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { count, ErrorNote } from '../ui';
import { useUrlState } from '../url-state';

const Usage = graphql(`
  query ConsoleLabUsage($labId: ID!, $days: Int!) {
    labUsage(labId: $labId) {
      totals {
        activeMembers
        sessions
        tokensIn
        tokensOut
      }
      members {
        memberUserId
        name
        status
        sessions
        tokensIn
        tokensOut
      }
      daily(days: $days) {
        day
        sessions
        tokensIn
        tokensOut
      }
    }
  }
`);

const WINDOWS = [7, 30, 90, 365];

/** An axis tick as the user's locale writes a number compactly (1.2M), so that it fits beside the chart. */
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const tick = (value: number) => compact.format(value);
/** Room for the longest compact tick ("999.9K") beside the chart. */
const AXIS_WIDTH = 56;

/** A UTC day (YYYY-MM-DD) as the user's locale writes a short date. */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The owner's usage report, loaded with the chart library on demand: model tokens per day over
 * a chosen window, and per member, as charts and in figures.
 */
export default function LabUsage({ labId }: { labId: string }) {
  // The window lives in the URL (`?days=90`), with the lab page's other views.
  const [view, setView] = useUrlState(['days'] as const);
  const days = WINDOWS.find((n) => String(n) === view.days) ?? 30;
  // Read again whenever the page shows it anew (the lab page remounts it when its members change).
  const [{ data, error }] = useQuery({ query: Usage, variables: { labId, days }, requestPolicy: 'cache-and-network' });
  const usage = data?.labUsage;
  // Requests that were rejected, and members who left, are not members: the chart leaves them out.
  const charted = usage?.members.filter((member) => member.status === 'active') ?? [];
  const daily = usage?.daily.map((d) => ({ ...d, label: dayLabel(d.day) }));
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <ErrorNote error={error} />
      {usage && daily && (
        <>
          <p>
            {count(usage.totals.activeMembers, 'active member')}. Language-model use through labdesk:{' '}
            {count(usage.totals.tokensIn, 'token')} in and {usage.totals.tokensOut.toLocaleString()} out, in{' '}
            {count(usage.totals.sessions, 'session')}.
          </p>
          <h3 id="usage-daily-title">Tokens per day (UTC)</h3>
          <label>
            Over the last{' '}
            <select
              value={days}
              onChange={(event) => setView({ days: Number(event.target.value) === 30 ? 0 : Number(event.target.value) })}
            >
              {WINDOWS.map((n) => (
                <option key={n} value={n}>
                  {n} days
                </option>
              ))}
            </select>
          </label>
          <div className="chart">
            <ResponsiveContainer width="100%" height={200}>
              <AreaChart data={daily} accessibilityLayer aria-labelledby="usage-daily-title">
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="label" minTickGap={16} />
                <YAxis tickFormatter={tick} width={AXIS_WIDTH} />
                <Tooltip />
                <Legend />
                <Area type="monotone" dataKey="tokensIn" name="Tokens in" stroke="#2454c5" fill="#2454c5" fillOpacity={0.25} />
                <Area type="monotone" dataKey="tokensOut" name="Tokens out" stroke="#5a7bc0" fill="#7a9be0" fillOpacity={0.25} />
              </AreaChart>
            </ResponsiveContainer>
          </div>
          <p className="muted">
            {count(
              daily.reduce((sum, d) => sum + d.tokensIn + d.tokensOut, 0),
              'token',
            )}{' '}
            and {count(daily.filter((d) => d.sessions > 0).length, 'active day')} in these {days} days.
          </p>
          {charted.length > 0 && (
            <>
              <h3 id="usage-members-title">Per member</h3>
              <div className="chart">
                <ResponsiveContainer width="100%" height={240}>
                  <BarChart data={charted} accessibilityLayer aria-labelledby="usage-members-title">
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="name" />
                    <YAxis tickFormatter={tick} width={AXIS_WIDTH} />
                    <Tooltip />
                    <Legend />
                    <Bar dataKey="tokensIn" name="Tokens in" fill="#2454c5" />
                    <Bar dataKey="tokensOut" name="Tokens out" fill="#7a9be0" />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
