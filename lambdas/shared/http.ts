import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Caller } from './auth/caller.ts';

/** A function-URL (payload 2.0) event whose body the middlewares have parsed and validated. */
export type ParsedEvent<Body> = Omit<APIGatewayProxyEventV2, 'body'> & { body: Body };

export type HttpResult = APIGatewayProxyStructuredResultV2;

/** The Lambda context once the auth middleware has identified the caller. */
export type CallerContext = Context & { caller: Caller };

export const jsonResponse = (statusCode: number, body: unknown): HttpResult => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

export const ok = (body: unknown): HttpResult => jsonResponse(200, body);
