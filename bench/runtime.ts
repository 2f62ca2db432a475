/**
 * The one place the bench reaches into the wiring (the runtime modules `intel start` runs): the
 * bench-only child process (bench/embedded-child.ts) and the Kafka publisher
 * import from here, so a move of these modules is fixed in this file alone.
 */
export { loadConfig } from '../infra/config.ts';
export { createServices } from '../runtime/services.ts';
export { startEngine } from '../runtime/engine.ts';
export { startApiThread } from '../runtime/api-thread.ts';
export { publishEvents } from '../ingest/publisher.ts';
export { createKafkaLog } from '../infra/log/kafka.ts';
