/**
 * The only module that reads process.env. Everything else receives a typed Config.
 */
export type Env = Record<string, string | undefined>;

export function readEnv(): Env {
  return { ...process.env };
}
