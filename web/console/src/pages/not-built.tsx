/**
 * A section the console does not have yet (issue 25 is built in steps). It says so, and where
 * the same data is today, rather than showing an empty page that looks finished.
 */
export function NotBuiltYet({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <div className="empty">
        <p>This part of the console is not built yet.</p>
        <p>
          Everything it will show is in the GraphQL API already: explore it in <a href="/graphql">GraphiQL</a>, signed in as you are.
        </p>
      </div>
    </>
  );
}
