"""The same generator on a different public OpenAPI document: the classic Petstore.

The client is generated into a temporary directory, imported and called against a mock
transport: path, query (scalar and array) and header parameters, bodies, array and map
responses, no-content responses, readOnly fields, nullable fields and errors.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

BASE = "https://petstore3.swagger.io/api/v3"
PET = {"id": 7, "name": "Rex", "photoUrls": ["https://img/1"], "status": "available"}


def ok(body: Any, status: int = 200) -> httpx.Response:
    return httpx.Response(status, content=json.dumps(body).encode())


def client_for(petstore: Any, mock: Any) -> Any:
    return petstore.PetstoreClient(
        auth=petstore.TokenAuth("petstore-key"), transport=httpx.MockTransport(mock)
    )


def test_public_surface(petstore: Any) -> None:
    for name in ("PetstoreClient", "AsyncPetstoreClient", "PetstoreError", "NotFoundError", "Pet"):
        assert name in petstore.__all__
    assert issubclass(petstore.ApiError, petstore.PetstoreError)
    methods = {
        "add_pet",
        "update_pet",
        "find_pets_by_status",
        "find_pets_by_tags",
        "get_pet_by_id",
        "delete_pet",
        "get_inventory",
        "place_order",
    }
    assert methods <= set(dir(petstore.PetstoreClient))
    assert methods <= set(dir(petstore.AsyncPetstoreClient))


def test_add_pet_drops_read_only_id_from_the_request_model(petstore: Any, recorder: Any) -> None:
    mock = recorder(ok(PET), ok(PET))
    with client_for(petstore, mock) as client:
        pet = client.add_pet({"name": "Rex", "photoUrls": ["https://img/1"]})
        # A request object keeps fields it does not know, a readOnly one included: as given.
        client.add_pet({"id": 1, "name": "Rex", "photoUrls": []})
    assert "id" not in petstore.models.PetInput.model_fields
    assert isinstance(pet, petstore.Pet)
    assert pet.id == 7
    first, second = mock.requests
    assert first.url == f"{BASE}/pet"
    assert first.headers["api_key"] == "petstore-key"
    assert json.loads(first.content) == {"name": "Rex", "photoUrls": ["https://img/1"]}
    assert json.loads(second.content) == {"id": 1, "name": "Rex", "photoUrls": []}


def test_query_parameters_scalar_and_array(petstore: Any, recorder: Any) -> None:
    mock = recorder(ok([PET]), ok([PET, PET]))
    with client_for(petstore, mock) as client:
        by_status = client.find_pets_by_status(status="sold")
        by_tags = client.find_pets_by_tags(tags=["a", "b c"])
        with pytest.raises(petstore.RequestValidationError, match="status"):
            client.find_pets_by_status(status="lost")
    assert [p.name for p in by_status.root] == ["Rex"]
    assert len(by_tags.root) == 2
    assert mock.requests[0].url.params.get_list("status") == ["sold"]
    assert mock.requests[1].url.params.get_list("tags") == ["a", "b c"]


def test_path_parameter_validation_and_not_found(petstore: Any, recorder: Any) -> None:
    mock = recorder(ok(PET), httpx.Response(404, content=b""))
    with client_for(petstore, mock) as client:
        assert client.get_pet_by_id(7).name == "Rex"
        with pytest.raises(petstore.NotFoundError) as caught:
            client.get_pet_by_id(8)
        with pytest.raises(petstore.RequestValidationError, match="petId"):
            client.get_pet_by_id(0)
        with pytest.raises(petstore.RequestValidationError, match="petId"):
            client.get_pet_by_id("7")
    assert caught.value.operation == "get_pet_by_id"
    assert [r.url.path for r in mock.requests] == ["/api/v3/pet/7", "/api/v3/pet/8"]


def test_no_content_response_and_header_parameter(petstore: Any, recorder: Any) -> None:
    mock = recorder(httpx.Response(204))
    with client_for(petstore, mock) as client:
        assert client.delete_pet(7, api_key="other-key") is None
    (request,) = mock.requests
    assert request.method == "DELETE"
    assert request.headers["api_key"] == "petstore-key"  # auth wins over the parameter


def test_map_response_and_optional_body(petstore: Any, recorder: Any) -> None:
    order = {"id": 1, "petId": 7, "quantity": 2, "status": "backordered", "extra": True}
    mock = recorder(ok({"available": 3, "sold": 1}), ok(order))
    with client_for(petstore, mock) as client:
        inventory = client.get_inventory()
        placed = client.place_order(body={"petId": 7, "quantity": 2})
    assert inventory.root == {"available": 3, "sold": 1}
    assert placed.status == "backordered"  # an enum value the spec does not know
    assert placed.model_dump(exclude_unset=True) == order  # unknown field kept


def test_nullable_field_null_versus_absent(petstore: Any, recorder: Any) -> None:
    mock = recorder(ok({**PET, "nickname": None}), ok(PET))
    with client_for(petstore, mock) as client:
        with_null = client.get_pet_by_id(7)
        without = client.get_pet_by_id(7)
    assert with_null.model_dump(exclude_unset=True) == {**PET, "nickname": None}
    assert without.model_dump(exclude_unset=True) == PET


async def test_async_petstore(petstore: Any, recorder: Any) -> None:
    mock = recorder(ok(PET), httpx.Response(500, content=b'{"error_msg": "boom"}'))
    async with petstore.AsyncPetstoreClient(transport=httpx.MockTransport(mock)) as client:
        assert (await client.get_pet_by_id(7)).id == 7
        with pytest.raises(petstore.ServerError, match="boom"):
            await client.add_pet({"name": "Rex", "photoUrls": []})
