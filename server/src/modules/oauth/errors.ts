// Errors of the 云文档 token and revocation endpoints. These two routes speak OAuth 2.0, not the
// product's envelope: an error is `{ error, error_description }` (RFC 6749 section 5.2, RFC 7009
// section 2.2.1) with HTTP 400, or 401 for invalid_client. The description is Chinese.

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type';

export class OAuthError extends Error {
  readonly statusCode: number;
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.statusCode = error === 'invalid_client' ? 401 : 400;
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidClient = (description = '客户端不存在或已停用') => new OAuthError('invalid_client', description);
