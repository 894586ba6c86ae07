export interface PlatformSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface PlatformTables {
  platform_settings: PlatformSettingsTable;
}
