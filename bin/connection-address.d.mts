import type { IncomingMessage, ServerResponse } from "node:http";

export declare const CONNECTION_HEADER_PREFIX: string;
export declare const CONNECTION_HEADER_KEY: unique symbol;
export declare function installConnectionHeader(target?: object): string;
export declare function withConnectionAddress<R>(
  handler: (request: IncomingMessage, response: ServerResponse, ...rest: never[]) => R,
  header: string,
): (request: IncomingMessage, response: ServerResponse) => R;
