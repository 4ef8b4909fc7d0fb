import { readCounterStoreSettings, type CounterStoreSettings } from '../backends/index.js';
import { EnvReader, loadSettings, type Settings } from '../settings/index.js';

/** Every setting of the service: those of settings/, and those each counter store reads itself. */
export type ServiceSettings = Settings & CounterStoreSettings;

/** Reads and validates every setting; throws SettingsError naming the first bad variable. */
export function loadServiceSettings(source: Readonly<Record<string, string | undefined>> = process.env): ServiceSettings {
  const settings = loadSettings(source);
  return { ...settings, ...readCounterStoreSettings(new EnvReader(source)) };
}
