/**
 * The header the IAM gate in front of the S3 stand-in sets ('1' or '0'): whether the caller may
 * list the bucket, which decides how a missing key is answered (GetObject: NoSuchKey with
 * s3:ListBucket, AccessDenied without). The gate drops it from incoming requests.
 */
export const LIST_BUCKET_HEADER = 'x-local-iam-list-bucket';
