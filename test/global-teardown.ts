export default async function globalTeardown(): Promise<void> {
  await globalThis.__EPHEMERAL_PG__?.stop();
}
