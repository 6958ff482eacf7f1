import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote } from '../ui';

const Usage = graphql(`
  query ConsoleLabUsage($labId: ID!) {
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
        sessions
        tokensIn
        tokensOut
      }
    }
  }
`);

/** The owner's usage report: model tokens and sessions per member, as a chart and in figures (loaded with the chart library, on demand). */
export default function LabUsage({ labId }: { labId: string }) {
  const [{ data, error }] = useQuery({ query: Usage, variables: { labId } });
  const usage = data?.labUsage;
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <ErrorNote error={error} />
      {usage && (
        <>
          <p>
            {usage.totals.activeMembers} active members, {usage.totals.sessions} sessions, {usage.totals.tokensIn.toLocaleString()} tokens
            in and {usage.totals.tokensOut.toLocaleString()} out.
          </p>
          {usage.members.length > 0 && (
            <BarChart width={640} height={240} data={usage.members} accessibilityLayer aria-labelledby="usage-title">
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="name" />
              <YAxis />
              <Tooltip />
              <Legend />
              <Bar dataKey="tokensIn" name="Tokens in" fill="#2454c5" />
              <Bar dataKey="tokensOut" name="Tokens out" fill="#7a9be0" />
            </BarChart>
          )}
        </>
      )}
    </section>
  );
}
