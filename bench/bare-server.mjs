/**
 * The ceiling: a bare Fastify route on the same machine that parses the same request JSON and
 * answers an envelope of the same size, with no authentication, store or rules. Every airorder
 * figure is reported as a ratio to this one, measured in the same run.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false });
// About the size of an AirOrderCancel success envelope.
const filler = 'x'.repeat(480);

app.get('/', async () => ({ status: 'ok' }));
app.post('/bare', async (request) => {
  const orderId = request.body?.OrderCancelRQ?.Query?.OrderID ?? '';
  return {
    OrderViewRS: { ShoppingResponseId: filler, Response: [{ Status: 'SUCCESS', OrderID: orderId }], Success: {} },
  };
});

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
