"use client";

import type { ControlProps } from "./form-field";
import { inputClasses } from "./form-field";

/** A value, or a value with its label. */
export type SelectOptions<V extends string> = readonly (V | readonly [V, string])[];

/** A <select> over a fixed set of values, typed by them; used inside a FormField. */
export function SelectControl<V extends string>({
  control,
  value,
  options,
  onChange,
  disabled,
}: {
  control: ControlProps;
  value: V;
  options: SelectOptions<V>;
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  return (
    <select {...control} value={value} disabled={disabled} onChange={(ev) => onChange(ev.target.value as V)} className={inputClasses}>
      {options.map((option) => {
        const [optionValue, label] = typeof option === "string" ? [option, option] : option;
        return (
          <option key={optionValue} value={optionValue}>
            {label}
          </option>
        );
      })}
    </select>
  );
}
