import { createRequire } from 'node:module';
import type * as proto from '@temporalio/proto';

/*
 * Histories as files, in the JSON form Temporal's CLI (`temporal workflow show --output json`) and UI export, so a
 * history downloaded from a real cluster can be committed next to the constructed ones.
 *
 * Why not @temporalio/common's historyFromJSON/historyToJSON: this install has two copies of protobufjs 8 (one under
 * @temporalio/common, one under @temporalio/proto, because grpc-js pins protobufjs 7 at the root), and their
 * `instanceof Type` check fails across copies ("type must be a Type"). The protojson extension of the copy that built
 * @temporalio/proto's types does the same conversion without that problem; the result is turned into a
 * `History` with `History.fromObject`, as the replay worker expects.
 */

const require = createRequire(import.meta.url);
const protoEntry = require.resolve('@temporalio/proto');
const { temporal } = require(protoEntry) as typeof proto;

interface ProtoJson {
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
  toJson(type: unknown, message: unknown): unknown;
}
const protojson = require(require.resolve('protobufjs/ext/protojson', { paths: [protoEntry] })) as ProtoJson;
const { patchProtobufRoot } = require(require.resolve('@temporalio/proto/lib/patch-protobuf-root', { paths: [protoEntry] })) as {
  patchProtobufRoot<T>(root: T): T & { lookupType(name: string): unknown };
};
const historyType = patchProtobufRoot(require(protoEntry) as Record<string, unknown>).lookupType('temporal.api.history.v1.History');

type History = proto.temporal.api.history.v1.History;

/** Pretty JSON of a history, as the CLI writes it. */
export function historyToJson(events: proto.temporal.api.history.v1.IHistoryEvent[]): string {
  const history = temporal.api.history.v1.History.fromObject({ events });
  return `${JSON.stringify(protojson.toJson(historyType, history), null, 2)}\n`;
}

/** A history file's JSON (CLI/UI form) as the `History` the replay worker takes. */
export function historyFromJson(json: unknown): History {
  const loaded = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (!loaded) throw new TypeError('not a history');
  return temporal.api.history.v1.History.fromObject(loaded as Record<string, unknown>);
}
