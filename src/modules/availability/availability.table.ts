/** Placeholder: the availability module declares its tables here. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AvailabilityTables {}
