"""The JSON API's OpenAPI description (analyzer/web/openapi.py): served by the server, true of
what it answers (every answer of the other web tests' kinds validated against it), and the
API fuzzed from it with schemathesis: generated requests, no 500, every answer as described."""

import json

import jsonschema
import pytest
import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance
from hypothesis import HealthCheck, settings

from analyzer.web import api
from analyzer.web.app import create_app
from analyzer.web.openapi import description

APP = create_app(api.Limits(rate=1e9, burst=10**9))  # the fuzzer's thousands of requests are not throttled
SCHEMA = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)


def validate(answer: dict, name: str):
    """The answer against the described schema ``name`` (its $refs resolved in the description)."""
    whole = description()
    jsonschema.validate(answer, {"$ref": f"#/components/schemas/{name}", **whole},
                        cls=jsonschema.Draft202012Validator)


def test_the_server_serves_its_description():
    client = APP.test_client()
    served = client.get("/api/openapi.json")
    assert served.status_code == 200 and served.get_json() == json.loads(json.dumps(description()))
    jsonschema.Draft202012Validator.check_schema(description()["components"]["schemas"]["Now"])


@pytest.mark.parametrize("body", [
    {"rules": "catalog", "dealt": "9 8 K 5", "count": "dragon_7_jacobson", "known": ["1=9"]},
    {"rules": "standard", "decks": 1, "dealt": "A A A"},
    {"rules_toml": open("examples/wild_bets.toml").read().replace('symbols = ["J"]', "").replace(
        '"J / 10 + 10"', "20"), "shoe_json": '{"ranks": {"A": 8, "9": 8, "T": 16, "5": 8}}'},
    {"rules": "catalog", "card_level": False}])
def test_real_answers_of_now_are_as_described(body):
    response = APP.test_client().post("/api/now", json=body)
    assert response.status_code == 200, response.get_json()
    validate(response.get_json(), "Now")


@pytest.mark.parametrize("toml, bet", [(open("examples/wild_bets.toml").read(), "player_run"),
                                       (open("examples/wrong_order.toml").read(), None),
                                       (open("examples/card_bets.toml").read(), None)])
def test_real_answers_of_design_are_as_described(toml, bet):
    body = {"rules_toml": toml} | ({"bet": bet} if bet else {})
    response = APP.test_client().post("/api/design", json=body)
    assert response.status_code == 200, response.get_json()
    validate(response.get_json(), "Design")


def test_refusals_and_the_rule_sets_are_as_described():
    client = APP.test_client()
    validate(client.get("/api/rules").get_json(), "Rules")
    for body in ({"rules": "nope"}, {"dealt": "Z"}, {"decks": 0}, {"unknown": 1}, {"rules_toml": "x = ["}):
        response = client.post("/api/now", json=body)
        assert response.status_code == 400
        validate(response.get_json(), "Error")


@SCHEMA.parametrize()
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_requests_get_described_answers_and_never_a_500(case):
    # A request the description allows may still be refused, by name, with a 400 the description
    # lists: a rule set or card the server does not know, two shoes at once. Every other check runs:
    # no 500, every status and body as described, 405s with their Allow header.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
