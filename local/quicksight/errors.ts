/**
 * Errors answered as QuickSight does: the error name in `x-amzn-errortype`, a JSON body with
 * `Message` (and `ResourceType` where QuickSight sends one) and the status the SDK expects.
 */

export type QuickSightErrorName =
  | 'AccessDeniedException'
  | 'InvalidParameterValueException'
  | 'InvalidNextTokenException'
  | 'ResourceExistsException'
  | 'ResourceNotFoundException'
  | 'InternalFailureException'
  | 'MissingAuthenticationTokenException'
  | 'UnknownOperationException';

const STATUS: Record<QuickSightErrorName, number> = {
  AccessDeniedException: 401,
  InvalidParameterValueException: 400,
  InvalidNextTokenException: 400,
  ResourceExistsException: 409,
  ResourceNotFoundException: 404,
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

export const userNotFound = (arn: string) =>
  new QuickSightError('ResourceNotFoundException', `User not found: ${arn}`, 'USER');

export const dashboardNotFound = (dashboardId: string) =>
  new QuickSightError('ResourceNotFoundException', `Dashboard ${dashboardId} is not found`, 'DASHBOARD');

export const namespaceNotFound = (namespace: string) =>
  new QuickSightError('ResourceNotFoundException', `Namespace ${namespace} is not found`, 'NAMESPACE');
