/**
 * Errors answered as QuickSight does: the error name in `x-amzn-errortype`, a JSON body with
 * `Message` (and `ResourceType` where QuickSight sends one) and the status the SDK's model
 * gives the error. Each operation uses only the errors its API reference page lists.
 */

export type QuickSightErrorName =
  | 'AccessDeniedException'
  | 'InvalidParameterValueException'
  | 'InvalidNextTokenException'
  | 'LimitExceededException'
  | 'PreconditionNotMetException'
  | 'ResourceExistsException'
  | 'ResourceNotFoundException'
  | 'QuickSightUserNotFoundException'
  | 'SessionLifetimeInMinutesInvalidException'
  | 'InternalFailureException'
  | 'MissingAuthenticationTokenException'
  | 'UnknownOperationException';

const STATUS: Record<QuickSightErrorName, number> = {
  AccessDeniedException: 401,
  InvalidParameterValueException: 400,
  InvalidNextTokenException: 400,
  LimitExceededException: 409,
  PreconditionNotMetException: 400,
  ResourceExistsException: 409,
  ResourceNotFoundException: 404,
  QuickSightUserNotFoundException: 404,
  SessionLifetimeInMinutesInvalidException: 400,
  InternalFailureException: 500,
  MissingAuthenticationTokenException: 403,
  UnknownOperationException: 404,
};

export class QuickSightError extends Error {
  readonly status: number;

  constructor(
    readonly errorName: QuickSightErrorName,
    message: string,
    readonly resourceType?: string,
    status?: number,
  ) {
    super(message);
    this.name = errorName;
    this.status = status ?? STATUS[errorName];
  }
}

export const invalidParameter = (message: string) => new QuickSightError('InvalidParameterValueException', message);

/** The end of a refusal of something QuickSight does but the emulator does not. */
export const NOT_EMULATED = 'is not supported by this emulator';

/**
 * A missing user as DescribeUser, DeleteUser and the other user operations answer it: their
 * documented errors include ResourceNotFoundException but not QuickSightUserNotFoundException.
 */
export const userNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `User not found: ${arn}`, 'USER');

/** A missing user as the embed-URL operations answer it (their documented error for it). */
export const quickSightUserNotFound = (arn: string) =>
  new QuickSightError('QuickSightUserNotFoundException', `The user with the provided name isn't found: ${arn}`);

export const dashboardNotFound = (dashboardId: string) =>
  new QuickSightError('ResourceNotFoundException', `Dashboard ${dashboardId} is not found`, 'DASHBOARD');

export const namespaceNotFound = (namespace: string) =>
  new QuickSightError('ResourceNotFoundException', `Namespace ${namespace} is not found`, 'NAMESPACE');

export const groupNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `Group not found: ${arn}`, 'GROUP');

export const dataSourceNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `Data source not found: ${arn}`, 'DATA_SOURCE');

export const dataSetNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `Data set not found: ${arn}`, 'DATA_SET');

export const ingestionNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `Ingestion not found: ${arn}`, 'INGESTION');

export const resourceExists = (what: string, resourceType: string) =>
  new QuickSightError('ResourceExistsException', `${what} already exists`, resourceType);
