import { Agent, setGlobalDispatcher } from 'undici';

/**
 * The tests' fetch gives up an idle keep-alive connection after 1 s, well before workerd closes it
 * (5 s, kj's pipelineTimeout; not configurable). undici's default is 4 s, and its timer only runs
 * when the event loop does: a test hashing or building 100 MiB keeps the loop busy for seconds under
 * load, then the next test sent its first request on a connection the backend had closed in the
 * meantime ("other side closed"; cargohold/assets.test.ts after its 100 MiB upload, whatever the
 * entry socket). Node's fetch takes the dispatcher undici registers globally.
 */
setGlobalDispatcher(new Agent({ keepAliveTimeout: 1_000 }));
