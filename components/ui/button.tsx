import type { ButtonHTMLAttributes } from "react";

const VARIANTS = {
  primary: "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-50",
  secondary: "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 disabled:opacity-50",
  danger: "text-sm font-medium text-red-700 underline disabled:opacity-50",
  link: "text-sm font-medium text-slate-700 underline disabled:opacity-50",
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

/** A button in one of the dashboard's few styles; type="button" unless told otherwise. */
export function Button({ variant = "secondary", className = "", type = "button", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button type={type} className={`${VARIANTS[variant]} ${className}`} {...props} />;
}
