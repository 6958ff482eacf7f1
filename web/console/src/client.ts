import { createClient as createSocket } from 'graphql-ws';
import { cacheExchange, Client, fetchExchange, subscriptionExchange } from 'urql';

/**
 * The console's one way to the service: GraphQL at /graphql, over POST (the server's CSRF
 * protection refuses simple GETs) and the browser's session cookie; subscriptions over
 * graphql-ws on the same path, opened on first use.
 */
const socket = createSocket({ url: `${location.origin.replace(/^http/, 'ws')}/graphql`, lazy: true, retryAttempts: 5 });

export const client = new Client({
  url: '/graphql',
  preferGetMethod: false,
  fetchOptions: { credentials: 'same-origin' },
  // Lists change under other people's hands (approvals, new records): read the network each time a page opens.
  requestPolicy: 'cache-and-network',
  exchanges: [
    cacheExchange,
    fetchExchange,
    subscriptionExchange({
      forwardSubscription(request) {
        const input = { ...request, query: request.query ?? '' };
        return { subscribe: (sink) => ({ unsubscribe: socket.subscribe(input, sink) }) };
      },
    }),
  ],
});
