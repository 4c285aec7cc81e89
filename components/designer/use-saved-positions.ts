"use client";

import { useState } from "react";
import type { Position } from "./to-designer-flow";

type Positions = Readonly<Record<string, Position>>;
const keyFor = (workflow: string) => `dualstate.designer.positions.${workflow}`;

function load(workflow: string): Positions {
  if (typeof window === "undefined") return {};
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(keyFor(workflow)) ?? "{}");
    return typeof stored === "object" && stored !== null ? (stored as Positions) : {};
  } catch {
    return {}; // an unreadable entry only costs the manual layout
  }
}

/**
 * Where the user dragged each state, kept in localStorage per workflow so the layout survives a
 * reload; states never dragged keep the automatic layout. `reset` returns to it entirely.
 */
export function useSavedPositions(workflow: string) {
  const [positions, setPositions] = useState<Positions>(() => load(workflow));
  function update(next: Positions, persist: boolean) {
    setPositions(next);
    if (persist) window.localStorage.setItem(keyFor(workflow), JSON.stringify(next));
  }
  return {
    positions,
    /** Moves states; `persist` once the drag ends, not on every frame. */
    place: (moved: Positions, persist: boolean) => update({ ...positions, ...moved }, persist),
    rename: (from: string, to: string) => {
      const { [from]: position, ...rest } = positions;
      update(position ? { ...rest, [to]: position } : rest, true);
    },
    reset: () => {
      window.localStorage.removeItem(keyFor(workflow));
      setPositions({});
    },
  };
}
