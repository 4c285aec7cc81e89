"use client";

import { createContext, useContext, type ReactNode } from "react";
import { can, refusalReason, type Action, type Role } from "@/server/auth/permissions";

export interface SignedInUser {
  readonly email: string;
  readonly role: Role;
}

const SignedInUserContext = createContext<SignedInUser | null>(null);

/**
 * Who is signed in, given once by the dashboard's server layout, so every control can ask what
 * the role allows without a request. The procedures check again on every call.
 */
export function SignedInUserProvider({ user, children }: { user: SignedInUser; children: ReactNode }) {
  return <SignedInUserContext.Provider value={user}>{children}</SignedInUserContext.Provider>;
}

export function useSignedInUser(): SignedInUser | null {
  return useContext(SignedInUserContext);
}

/** Whether the signed-in person may do `action`, and if not, why ("Viewers cannot start runs"). */
export function usePermission(action: Action): { allowed: boolean; reason: string | null } {
  const role = useContext(SignedInUserContext)?.role ?? null;
  return { allowed: can(role, action), reason: refusalReason(role, action) };
}
