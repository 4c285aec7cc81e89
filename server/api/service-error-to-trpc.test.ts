import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { conflict, invalidInput, notConfigured, notFound, type ServiceError } from "@/server/services/errors";
import { toPublicTRPCError } from "./service-error-to-trpc";

/** How tRPC hands a middleware an error the resolver threw: wrapped, with the original as cause. */
const wrapped = (cause: unknown) => new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause });

describe("toPublicTRPCError", () => {
  it.each<[ServiceError, TRPCError["code"]]>([
    [notFound("Workflow", "w-1"), "NOT_FOUND"],
    [conflict('name: a workflow named "A" already exists'), "CONFLICT"],
    [invalidInput("definition", "must have a start step"), "BAD_REQUEST"],
    [notConfigured('Step "write" needs a model, but no model endpoint is configured'), "PRECONDITION_FAILED"],
  ])("maps %s to %s and keeps its message", (serviceError, code) => {
    const error = toPublicTRPCError(wrapped(serviceError));
    expect(error).toMatchObject({ code, message: serviceError.message });
  });

  it("replaces an unexpected error's message and keeps it as the cause for the log", () => {
    const cause = new Error("ECONNREFUSED 10.0.0.7:5432");
    const error = toPublicTRPCError(wrapped(cause));
    expect(error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: "Internal server error" });
    expect(error.cause).toBe(cause);
  });

  it("recognises a ServiceError from another copy of the module by name and code", () => {
    const foreign = Object.assign(new Error('Run "r-9" was not found'), { name: "ServiceError", code: "NOT_FOUND" });
    expect(toPublicTRPCError(wrapped(foreign)).code).toBe("NOT_FOUND");
  });

  it("passes deliberate tRPC errors through", () => {
    const badRequest = new TRPCError({ code: "BAD_REQUEST", message: "specification: must not be empty" });
    expect(toPublicTRPCError(badRequest)).toBe(badRequest);
  });
});
