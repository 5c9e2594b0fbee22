# Schemathesis hooks of `npm run fuzz`: every request takes the next of the API keys the runner created
# (FUZZ_API_KEYS, comma-separated), so that the 100-requests-per-60-s quota of a key never answers in
# place of the operation under test. As an auth provider (not a header), Schemathesis still removes or
# spoils it for its authentication checks.
import itertools
import os

import schemathesis

_keys = itertools.cycle(os.environ["FUZZ_API_KEYS"].split(","))


@schemathesis.auth(refresh_interval=None)
class RotatingApiKey:
    def get(self, case, ctx):
        return next(_keys)

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
