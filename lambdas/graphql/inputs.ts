import * as z from 'zod';
import { adminEmail, dashboardId, dashboardLink, dashboardName } from '#contracts/fields.ts';
import { FILTER_LIMITS } from './arguments.ts';
import { filterProblem } from './filter.ts';

/**
 * Validation of the GraphQL arguments beyond their GraphQL types, with the same field rules
 * as the functions. GraphQL sends null for an omitted nullable input: null means "not given".
 */
const optional = <S extends z.ZodType>(schema: S) => schema.nullish().transform((value) => value ?? undefined);

const recordId = z.string().trim().min(1, 'id is required').max(128, 'id must be at most 128 characters');
const viewName = z.string().trim().min(1, 'View name is required').max(200, 'View name must be at most 200 characters');
const companyName = z.string().trim().max(200, 'Company Name must be at most 200 characters');
const description = z.string().trim().max(2000, 'Description must be at most 2000 characters');
/**
 * A filter or condition argument, its nesting and width checked (again, see arguments.ts) before anything evaluates
 * it.
 */
const modelFilter = (argument: 'filter' | 'condition') =>
  z
    .record(z.string(), z.unknown())
    .nullish()
    .superRefine((value, context) => {
      const problem = filterProblem(value, FILTER_LIMITS);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: `${argument} ${problem}` });
    });
const filter = modelFilter('filter');
const condition = modelFilter('condition');

export const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export const listArgs = z.object({
  filter,
  limit: optional(z.number().int().min(1).max(MAX_PAGE_SIZE)),
  nextToken: optional(z.string().max(4096)),
});

export const idArgs = z.object({ id: recordId });

/** The server makes every view id; a client-chosen one is refused rather than ignored. */
const SERVER_MADE_ID = 'id is assigned by the server: leave it out';

export const createViewArgs = z.object({
  input: z.object({
    id: z.null({ error: SERVER_MADE_ID }).optional(),
    isDefault: optional(z.boolean()),
    quicksightDashboardId: dashboardId,
    link: optional(dashboardLink),
    name: viewName,
    userEmail: optional(adminEmail),
    companyName: optional(companyName),
  }),
  condition,
});

export const updateViewArgs = z.object({
  input: z.object({
    id: recordId,
    isDefault: optional(z.boolean()),
    quicksightDashboardId: optional(dashboardId),
    link: optional(dashboardLink),
    name: optional(viewName),
    companyName: optional(companyName),
  }),
  condition,
});

export const deleteArgs = z.object({ input: z.object({ id: recordId }), condition });

export const createDashboardArgs = z.object({
  input: z.object({
    id: optional(recordId),
    dashboardId,
    dashboardName,
    dashboardLink,
    description: optional(description),
    isActive: optional(z.boolean()),
  }),
  condition,
});

export const updateDashboardArgs = z.object({
  input: z.object({
    id: recordId,
    dashboardId: optional(dashboardId),
    dashboardName: optional(dashboardName),
    dashboardLink: optional(dashboardLink),
    description: description.nullish(),
    isActive: optional(z.boolean()),
  }),
  condition,
});
