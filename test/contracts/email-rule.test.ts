import { describe, expect, it } from 'vitest';
import { contactRequestSchema } from '#contracts/contact.ts';
import { emailField } from '#contracts/auth-forms.ts';
import { adminEmail, EMAIL_PROBLEMS, MESSAGES, emailAddressProblem, signInEmail } from '#contracts/fields.ts';
import { signInEmailProblem } from '#contracts/rules.ts';

const ACCEPTED = [
  'user@example.com',
  'First.Last@sub.example.co.uk',
  "o'brien+reports@example-mail.io",
  'a_b-c%d@x.co',
  'UPPER@EXAMPLE.COM',
  `${'a'.repeat(64)}@example.com`,
];

const REFUSED: [string, string][] = [
  ['<script>alert(1)</script>@example.com', EMAIL_PROBLEMS.name],
  ['a/../../admin@x.co', EMAIL_PROBLEMS.name],
  ['*@example.com', EMAIL_PROBLEMS.name],
  ['user?@example.com', EMAIL_PROBLEMS.name],
  ['${aws:username}@example.com', EMAIL_PROBLEMS.name],
  ['"quoted"@example.com', EMAIL_PROBLEMS.name],
  ['back\\slash@example.com', EMAIL_PROBLEMS.name],
  ['.dot@example.com', EMAIL_PROBLEMS.name],
  ['two..dots@example.com', EMAIL_PROBLEMS.name],
  [`${'a'.repeat(65)}@example.com`, EMAIL_PROBLEMS.name],
  ['us\u0000er@example.com', EMAIL_PROBLEMS.hidden],
  ['user\u202E@example.com', EMAIL_PROBLEMS.hidden],
  ['user\u200B@example.com', EMAIL_PROBLEMS.hidden],
  ['user@exa\u2028mple.com', EMAIL_PROBLEMS.hidden],
  ['user name@example.com', EMAIL_PROBLEMS.hidden],
  ['user@example.com\r\nBcc: x@y.co', EMAIL_PROBLEMS.hidden],
  ['userexample.com', EMAIL_PROBLEMS.shape],
  ['@example.com', EMAIL_PROBLEMS.shape],
  ['user@', EMAIL_PROBLEMS.shape],
  ['a@b@example.com', EMAIL_PROBLEMS.shape],
  ['user@localhost', EMAIL_PROBLEMS.domain],
  ['user@example.c0m', EMAIL_PROBLEMS.domain],
  ['user@example.c', EMAIL_PROBLEMS.domain],
  ['user@-example.com', EMAIL_PROBLEMS.domain],
  ['user@example..com', EMAIL_PROBLEMS.domain],
  ['user@ex_ample.com', EMAIL_PROBLEMS.domain],
  ['user@[127.0.0.1]', EMAIL_PROBLEMS.domain],
  ['user@exämple.com', EMAIL_PROBLEMS.domain],
  [`user@${'a'.repeat(250)}.com`, EMAIL_PROBLEMS.tooLong],
];

describe('the shared email rule', () => {
  it.each(ACCEPTED)('accepts %s', (email) => {
    expect(emailAddressProblem(email)).toBeUndefined();
    expect(adminEmail.parse(email)).toBe(email);
  });

  it.each(REFUSED)('refuses %j: %s', (email, problem) => {
    expect(emailAddressProblem(email)).toBe(problem);
  });

  it('gives each form its spec message first and the reason second', () => {
    const result = adminEmail.safeParse('*@example.com');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      MESSAGES.adminEmailInvalid,
      EMAIL_PROBLEMS.name,
    ]);
    expect(signInEmail.safeParse('   ').error?.issues.map((issue) => issue.message)).toEqual([MESSAGES.emailRequired]);
    expect(contactRequestSchema.shape.email.safeParse('a/../../admin@x.co').error?.issues[0]?.message).toBe(
      MESSAGES.contactEmail,
    );
  });

  it('is the rule of the sign-in page and the zod/mini auth forms too', () => {
    for (const [email] of REFUSED) {
      expect(signInEmailProblem(email)).toBe(MESSAGES.emailInvalid);
      expect(emailField.safeParse(email).success).toBe(false);
    }
    expect(signInEmailProblem(' user@example.com ')).toBeUndefined();
    expect(emailField.parse(' user@example.com ')).toBe('user@example.com');
  });
});
