"""Makes AWS API calls with unmodified boto3/botocore and prints what each answered.

Reads a JSON list of calls on stdin; each names the client library ("boto3", or "botocore"
as the AWS CLI uses it), the service, endpoint, region, keys and operation with its
parameters, and optionally how to misbehave: sign with a clock `clock_offset_seconds` off,
change a signed header after signing (`tamper`), or add a header after signing that is not
signed (`unsigned_header`). Prints a JSON list with, for each call, `ok`, the HTTP status and
the error code and message AWS's error format carried.
"""

import datetime
import json
import sys
import types

import boto3
import botocore.auth
import botocore.session
from botocore.config import Config
from botocore.exceptions import ClientError

REAL_DATETIME = datetime.datetime
clock = {"offset": 0.0}


class ShiftedDatetime(REAL_DATETIME):
    """botocore's SigV4 signer reads the time from datetime.datetime.utcnow()."""

    @classmethod
    def utcnow(cls):
        return REAL_DATETIME.utcnow() + datetime.timedelta(seconds=clock["offset"])


# Only the signer's view of the clock moves; everything else keeps the real time.
shim = types.ModuleType("datetime")
shim.__dict__.update(datetime.__dict__)
shim.datetime = ShiftedDatetime
botocore.auth.datetime = shim

PROBE_HEADER = "X-Amz-Meta-Probe"


def make_client(call):
    config = Config(retries={"total_max_attempts": 1}, connect_timeout=10, read_timeout=30)
    kwargs = dict(
        region_name=call["region"],
        endpoint_url=call["endpoint"],
        aws_access_key_id=call["access_key"],
        aws_secret_access_key=call["secret_key"],
        config=config,
    )
    if call.get("library") == "botocore":
        # As the AWS CLI does: a botocore session's client, no boto3 layer.
        return botocore.session.get_session().create_client(call["service"], **kwargs)
    return boto3.session.Session().client(call["service"], **kwargs)


def run(call):
    client = make_client(call)
    events = client.meta.events
    if call.get("tamper"):
        # Signed (botocore signs every header it sends but User-Agent, Expect and X-Amzn-Trace-Id),
        # then changed before the request leaves.
        events.register("before-sign", lambda request, **_: request.headers.__setitem__(PROBE_HEADER, "as-signed"))

        def tamper(request, **_):
            del request.headers[PROBE_HEADER]
            request.headers[PROBE_HEADER] = "changed"

        events.register("before-send", tamper)
    if call.get("unsigned_header"):
        events.register("before-send", lambda request, **_: request.headers.__setitem__("X-Added-After-Signing", "1"))
    clock["offset"] = call.get("clock_offset_seconds", 0)
    try:
        response = getattr(client, call["operation"])(**call.get("params", {}))
        meta = response.pop("ResponseMetadata", {})
        return {"ok": True, "status": meta.get("HTTPStatusCode"), "response": response}
    except ClientError as error:
        return {
            "ok": False,
            "status": error.response.get("ResponseMetadata", {}).get("HTTPStatusCode"),
            "code": error.response.get("Error", {}).get("Code"),
            "message": error.response.get("Error", {}).get("Message"),
        }
    finally:
        clock["offset"] = 0


def main():
    calls = json.load(sys.stdin)
    print(json.dumps([run(call) for call in calls], default=str))


if __name__ == "__main__":
    main()
