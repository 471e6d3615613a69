// The investment properties the platform calculates itself. The API marks them with no field, so
// they are known by name (contract/openapi.yaml records the decision); a 422 on write confirms it.

export const AUTO_CALCULATED_PROPERTY_NAMES: readonly string[] = ['Total Invested', 'Current Fair Value', 'MOIC', 'Ownership', 'Initial Investment Date'];

export function isAutoCalculated(propertyName: string): boolean {
  return AUTO_CALCULATED_PROPERTY_NAMES.includes(propertyName);
}
