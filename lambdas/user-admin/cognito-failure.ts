import { isAwsError } from '../shared/aws/config.ts';
import {
  BadRequestError,
  ConflictError,
  HttpError,
  NotFoundError,
  TooManyRequestsError,
  UpstreamError,
} from '../shared/errors.ts';

/**
 * Cognito exceptions as the answers the admin portal translates (admin-portal §8):
 * 'User not found', 'User already exists', 'Email already exists', 'Invalid password'.
 */
export const cognitoFailure = (step: string, error: unknown, userEmail: string): HttpError => {
  if (error instanceof HttpError) return error;
  const reason = error instanceof Error ? error.message : undefined;
  if (isAwsError(error, 'UserNotFoundException')) return new NotFoundError('User not found', { userEmail });
  if (isAwsError(error, 'UsernameExistsException')) return new ConflictError('User already exists', { userEmail });
  if (isAwsError(error, 'AliasExistsException')) return new ConflictError('Email already exists', { userEmail });
  if (isAwsError(error, 'InvalidPasswordException'))
    return new BadRequestError('Invalid password', { userEmail, reason });
  if (isAwsError(error, 'InvalidParameterException')) {
    return /email/i.test(reason ?? '')
      ? new BadRequestError('Invalid email', { userEmail, reason })
      : new BadRequestError(reason ?? step, { userEmail });
  }
  if (isAwsError(error, 'TooManyRequestsException', 'LimitExceededException')) {
    return new TooManyRequestsError('Too many requests. Please try again later.');
  }
  return new UpstreamError(step, { userEmail, ...(reason ? { reason } : {}) });
};

/** Runs one Cognito call, translating its failure. */
export const cognitoStep = async <T>(step: string, userEmail: string, call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw cognitoFailure(step, error, userEmail);
  }
};
