/**
 * Service errors with Cognito's exception names and messages. The HTTP layer turns them
 * into `{"__type": name, "message": message}` bodies, as the AWS JSON 1.1 protocol does.
 */
export class CognitoServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
    this.name = type;
  }
}

const error =
  (type: string, statusCode = 400) =>
  (message: string) =>
    new CognitoServiceError(type, message, statusCode);

const notAuthorized = error('NotAuthorizedException');
export const invalidParameter = error('InvalidParameterException');
const resourceNotFound = error('ResourceNotFoundException');
export const codeMismatch = error('CodeMismatchException');
const expiredCode = error('ExpiredCodeException');
const limitExceeded = error('LimitExceededException');
const serialization = error('SerializationException');

/** The messages Cognito answers with, in one place so that every operation agrees. */
export const ERRORS = {
  incorrectCredentials: () => notAuthorized('Incorrect username or password.'),
  userDisabled: () => notAuthorized('User is disabled.'),
  passwordAttemptsExceeded: () => notAuthorized('Password attempts exceeded'),
  userNotConfirmed: () => new CognitoServiceError('UserNotConfirmedException', 'User is not confirmed.'),
  passwordResetRequired: () =>
    new CognitoServiceError('PasswordResetRequiredException', 'Password reset required for the user'),
  temporaryPasswordExpired: () =>
    notAuthorized('Temporary password has expired and must be reset by an administrator.'),
  userNotFound: () => new CognitoServiceError('UserNotFoundException', 'User does not exist.'),
  usernameExists: () =>
    new CognitoServiceError('UsernameExistsException', 'An account with the given email already exists.'),
  aliasExists: () => new CognitoServiceError('AliasExistsException', 'An account with the given email already exists.'),
  usernameNotEmail: () => invalidParameter('Username should be an email.'),
  invalidAccessToken: () => notAuthorized('Invalid Access Token'),
  accessTokenExpired: () => notAuthorized('Access Token has expired'),
  accessTokenRevoked: () => notAuthorized('Access Token has been revoked'),
  missingScope: () => notAuthorized('Access Token does not have required scopes'),
  invalidRefreshToken: () => notAuthorized('Invalid Refresh Token'),
  refreshTokenExpired: () => notAuthorized('Refresh Token has expired'),
  refreshTokenRevoked: () => notAuthorized('Refresh Token has been revoked'),
  invalidSession: () => notAuthorized('Invalid session for the user.'),
  sessionExpired: () => notAuthorized('Invalid session for the user, session is expired.'),
  mfaCodeMismatch: () => codeMismatch('Invalid code received for user'),
  softwareTokenAlreadyUsed: () => expiredCode('Your software token has already been used once.'),
  softwareTokenMismatch: () =>
    new CognitoServiceError('EnableSoftwareTokenMFAException', 'Code mismatch and fail enable Software Token MFA'),
  softwareTokenNotFound: () =>
    new CognitoServiceError('SoftwareTokenMFANotFoundException', 'Software Token MFA does not exist for the user.'),
  softwareTokenNotVerified: () => invalidParameter('User has not verified software token mfa'),
  smsNotConfigured: () => invalidParameter('User does not have delivery config set to turn on SMS_MFA'),
  emailMfaNotConfigured: () => invalidParameter('Email MFA is not enabled for this user pool'),
  verificationCodeMismatch: () => codeMismatch('Invalid verification code provided, please try again.'),
  verificationCodeExpired: () => expiredCode('Invalid code provided, please request a code again.'),
  attemptLimitExceeded: () => limitExceeded('Attempt limit exceeded, please try after some time.'),
  alreadyConfirmed: () => notAuthorized('User cannot be confirmed. Current status is CONFIRMED'),
  resendAlreadyConfirmed: () => invalidParameter('User is already confirmed.'),
  noVerifiedEmail: () =>
    invalidParameter('Cannot reset password for the user as there is no registered/verified email or phone_number'),
  resetNotAllowedInState: () => notAuthorized('User password cannot be reset in the current state.'),
  groupNotFound: () => resourceNotFound('Group not found.'),
  deviceNotFound: () => resourceNotFound('Device does not exist.'),
  deviceNotConfirmed: () => invalidParameter('Device is not confirmed.'),
  deviceAlreadyConfirmed: () => notAuthorized('Device has already been confirmed.'),
  deviceTrackingOff: () => invalidParameter('Device tracking is not configured for this user pool.'),
  groupExists: (name: string) =>
    new CognitoServiceError('GroupExistsException', `A group with the name ${name} already exists.`),
  poolNotFound: (id: string) => resourceNotFound(`User pool ${id} does not exist.`),
  clientNotFound: (id: string) => resourceNotFound(`User pool client ${id} does not exist.`),
  flowNotEnabled: (flow: string) => invalidParameter(`${flow} flow not enabled for this client`),
  signUpNotPermitted: () => notAuthorized('SignUp is not permitted for this user pool'),
  missingAuthParameter: (name: string) => invalidParameter(`Missing required parameter ${name}`),
  invalidPaginationToken: () => invalidParameter('Invalid pagination token.'),
  invalidFilter: () => invalidParameter('Error while parsing filter.'),
  attributeNotInSchema: (name: string) => invalidParameter(`Attribute does not exist in the schema: ${name}`),
  immutableAttribute: (name: string) => invalidParameter(`Cannot modify the non-mutable attribute ${name}`),
  resendNotPossible: (username: string) =>
    new CognitoServiceError(
      'UnsupportedUserStateException',
      `Resend not possible. ${username} status is not FORCE_CHANGE_PASSWORD`,
    ),
  unsupportedTokenType: () => new CognitoServiceError('UnsupportedTokenTypeException', 'Unsupported token type'),
  preTokenGenerationFailed: (reason: string) =>
    new CognitoServiceError('UserLambdaValidationException', `PreTokenGeneration failed with error ${reason}.`),
  postConfirmationFailed: (reason: string) =>
    new CognitoServiceError('UserLambdaValidationException', `PostConfirmation failed with error ${reason}.`),
  codeDeliveryFailed: () => new CognitoServiceError('CodeDeliveryFailureException', 'Unable to deliver message'),
  missingAuthenticationToken: () =>
    new CognitoServiceError('MissingAuthenticationTokenException', 'Missing Authentication Token', 403),
  unknownOperation: () => new CognitoServiceError('UnknownOperationException', 'Unknown operation'),
  malformedBody: () => serialization('Start of structure or map found where not expected.'),
  wrongType: (member: string) => serialization(`Unexpected value type in payload at '${member}'.`),
  webAuthnNotEnabled: () =>
    new CognitoServiceError('WebAuthnNotEnabledException', 'Passkey sign-in is not enabled for this user pool.'),
  webAuthnConfigurationMissing: () =>
    new CognitoServiceError(
      'WebAuthnConfigurationMissingException',
      'The user pool has no WebAuthn relying party ID or domain.',
    ),
  webAuthnChallengeNotFound: () =>
    new CognitoServiceError('WebAuthnChallengeNotFoundException', 'The WebAuthn registration challenge was not found.'),
  webAuthnOriginNotAllowed: () =>
    new CognitoServiceError(
      'WebAuthnOriginNotAllowedException',
      'The credential origin does not align with the user pool relying party ID.',
    ),
  webAuthnRelyingPartyMismatch: () =>
    new CognitoServiceError(
      'WebAuthnRelyingPartyMismatchException',
      'The credential is associated with a different relying party ID than the user pool.',
    ),
  webAuthnCredentialNotSupported: (reason: string) =>
    new CognitoServiceError('WebAuthnCredentialNotSupportedException', `The credential is not supported: ${reason}.`),
  invalidWebAuthnCredential: () => invalidParameter('The WebAuthn credential is not valid.'),
  passkeyAlreadyRegistered: () => invalidParameter('The WebAuthn credential is already registered.'),
  passkeyLimitExceeded: () => limitExceeded('The user has registered the maximum number of passkeys.'),
  passkeyNotFound: () => resourceNotFound('The WebAuthn credential was not found.'),
  passkeyMfaNotAllowed: () =>
    invalidParameter(
      'Passkey MFA requires the user pool WebAuthn factor configuration MULTI_FACTOR_WITH_USER_VERIFICATION.',
    ),
  passkeyMfaNeedsOtherMfa: () => invalidParameter('Passkey MFA requires another MFA method activated for the user.'),
  invalidPreferredChallenge: (name: string) => invalidParameter(`Invalid PREFERRED_CHALLENGE value: ${name}`),
  challengeNotAvailable: (name: string) => invalidParameter(`Challenge ${name} is not available for the user.`),
  bodyTooLarge: () => new CognitoServiceError('RequestEntityTooLargeException', 'Request entity too large', 413),
  internal: () => new CognitoServiceError('InternalErrorException', 'Internal server error.', 500),
} as const;
