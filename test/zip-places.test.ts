import assert from "node:assert/strict";
import { test } from "node:test";
import { requiredPlaces, usZipPlaces } from "../src/places/zip-places.js";

test("the ZIPs read as text are the package's US ZIPs, in the order require gives them", () => {
  const places = usZipPlaces();
  assert.ok(places.length > 40_000, `${places.length} ZIPs`);
  assert.deepEqual(places, requiredPlaces());
  const springfield = places.find((place) => place.zip === "62701");
  assert.ok(springfield);
  assert.equal(springfield.city, "SPRINGFIELD");
  assert.equal(springfield.state, "IL");
  // Its centroid, in central Illinois.
  assert.ok(springfield.lat > 39.5 && springfield.lat < 40.1, String(springfield.lat));
  assert.ok(springfield.lon > -90 && springfield.lon < -89.3, String(springfield.lon));
});
