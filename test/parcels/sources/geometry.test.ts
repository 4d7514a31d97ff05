import assert from "node:assert/strict";
import { test } from "node:test";
import { geometryPoint } from "../../../src/parcels/sources/geometry.js";
import { insidePolygon } from "./source-fixtures.js";

type Ring = Array<[number, number]>;

/** Distance from the point to the nearest edge, in metres (equirectangular, fine at parcel scale). */
function edgeDistance(point: { lon: number; lat: number }, ring: Ring): number {
  const k = Math.cos((point.lat * Math.PI) / 180) * 111_320;
  let best = Infinity;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [ax, ay] = [ring[j]![0] * k, ring[j]![1] * 111_320];
    const [bx, by] = [ring[i]![0] * k, ring[i]![1] * 111_320];
    const [px, py] = [point.lon * k, point.lat * 111_320];
    const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
    const t =
      length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / length2));
    best = Math.min(best, Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay))));
  }
  return best;
}

/** A lot of about 30 m by 30 m at Oakland's latitude, as offsets in metres turned into degrees. */
function lot(offsets: Array<[number, number]>): Ring {
  const [lon0, lat0] = [-122.27, 37.8];
  const k = Math.cos((lat0 * Math.PI) / 180) * 111_320;
  const ring = offsets.map(([x, y]): [number, number] => [lon0 + x / k, lat0 + y / 111_320]);
  return [...ring, ring[0]!];
}

// An L: its centroid (about (11, 11)) lies in the notch, outside the lot.
const L_SHAPE = lot([
  [0, 0],
  [30, 0],
  [30, 6],
  [6, 6],
  [6, 30],
  [0, 30],
]);
// A U: its centroid lies in the opening between the arms.
const U_SHAPE = lot([
  [0, 0],
  [30, 0],
  [30, 30],
  [24, 30],
  [24, 6],
  [6, 6],
  [6, 30],
  [0, 30],
]);

function centroid(ring: Ring): { lon: number; lat: number } {
  const points = ring.slice(0, -1);
  return {
    lon: points.reduce((s, [x]) => s + x, 0) / points.length,
    lat: points.reduce((s, [, y]) => s + y, 0) / points.length,
  };
}

test("an L- and a U-shaped lot get a point inside, where the centroid is outside", () => {
  for (const ring of [L_SHAPE, U_SHAPE]) {
    assert.equal(insidePolygon(centroid(ring), [ring]), false, "the fixture's centroid is outside");
    const { point, problem } = geometryPoint({ type: "Polygon", coordinates: [ring] });
    assert.equal(problem, undefined);
    assert.ok(point && insidePolygon(point, [ring]), JSON.stringify(point));
    // the pole of inaccessibility of an arm 6 m wide is about 3 m from the nearest edge
    assert.ok(edgeDistance(point, ring) > 2.5, `${edgeDistance(point, ring)} m from an edge`);
  }
});

test("a polygon with a hole: the point avoids the hole", () => {
  const outer = lot([
    [0, 0],
    [40, 0],
    [40, 40],
    [0, 40],
  ]);
  const hole = lot([
    [10, 10],
    [30, 10],
    [30, 30],
    [10, 30],
  ]).reverse();
  const { point } = geometryPoint({ type: "Polygon", coordinates: [outer, hole] });
  assert.ok(point && insidePolygon(point, [outer, hole]));
});

test("a MultiPolygon's point is inside its largest polygon", () => {
  const small = lot([
    [100, 100],
    [104, 100],
    [104, 104],
    [100, 104],
  ]);
  const { point } = geometryPoint({ type: "MultiPolygon", coordinates: [[small], [U_SHAPE]] });
  assert.ok(point && insidePolygon(point, [U_SHAPE]));
});

test("points, lines, empty and broken geometries", () => {
  assert.deepEqual(geometryPoint({ type: "Point", coordinates: [-122.1, 37.5] }), {
    point: { lon: -122.1, lat: 37.5 },
  });
  assert.deepEqual(geometryPoint({ type: "Point", coordinates: [-122.1, 37.5, 12] }).point, {
    lon: -122.1,
    lat: 37.5,
  });
  assert.deepEqual(
    geometryPoint({
      type: "MultiPoint",
      coordinates: [
        [-122.1, 37.5],
        [-122.2, 37.6],
      ],
    }).point,
    { lon: -122.1, lat: 37.5 },
  );
  assert.deepEqual(geometryPoint(null), { point: null });
  assert.deepEqual(geometryPoint({ type: "Polygon", coordinates: [] }), { point: null });
  assert.deepEqual(geometryPoint({ type: "MultiPoint", coordinates: [] }), { point: null });
  assert.deepEqual(
    geometryPoint({
      type: "LineString",
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    }),
    {
      point: null,
      problem: "a line geometry has no parcel point",
    },
  );
  assert.match(geometryPoint({ type: "Point", coordinates: ["a", 1] }).problem ?? "", /not numbers/);
  assert.match(geometryPoint({ type: "Curve" }).problem ?? "", /unknown geometry type "Curve"/);
  // State Plane feet read as degrees: not a place on Earth
  assert.match(
    geometryPoint({ type: "Point", coordinates: [6686470.79, 2146009.61] }).problem ?? "",
    /not longitude and latitude: the file's projection is missing or wrong/,
  );
  const polygons = {
    type: "GeometryCollection",
    geometries: [
      { type: "Point", coordinates: [5, 5] },
      { type: "Polygon", coordinates: [L_SHAPE] },
    ],
  };
  assert.ok(insidePolygon(geometryPoint(polygons).point!, [L_SHAPE]));
});

test("a reprojection that fails or gives no number is the record's problem", () => {
  const failing = (): never => {
    throw new Error("outside the projection's domain");
  };
  assert.match(
    geometryPoint({ type: "Point", coordinates: [1, 2] }, failing).problem ?? "",
    /coordinates \(1, 2\) that cannot be reprojected: outside the projection's domain/,
  );
  const nothing = () => ({ lon: NaN, lat: 1 });
  assert.match(
    geometryPoint({ type: "Polygon", coordinates: [L_SHAPE] }, nothing).problem ?? "",
    /reproject to no point/,
  );
});
