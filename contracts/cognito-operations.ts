/**
 * Cognito operations authorized by the user's token, or by nothing (sign-up, sign-in):
 * "Using the Amazon Cognito user pools API and user pool endpoints", the public and
 * token-authorized lists
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pools-API-operations.html).
 * Every other operation is IAM-authorized.
 */
export const COGNITO_WITHOUT_IAM: ReadonlySet<string> = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'GetUser',
  'ChangePassword',
  'UpdateUserAttributes',
  'DeleteUser',
  'DeleteUserAttributes',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'SetUserSettings',
  'GlobalSignOut',
  'RevokeToken',
  'GetTokensFromRefreshToken',
  'ConfirmDevice',
  'ForgetDevice',
  'GetDevice',
  'ListDevices',
  'UpdateDeviceStatus',
  'GetUserAuthFactors',
  'ListWebAuthnCredentials',
  'StartWebAuthnRegistration',
  'CompleteWebAuthnRegistration',
  'DeleteWebAuthnCredential',
]);
