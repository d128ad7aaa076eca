import { FormField, inputClasses } from "@/components/ui/form-field";
import { isHexColor } from "../../../packages/js/src/ui/colors";

type ColorFieldProps = { label: string; value: string; onChange: (value: string) => void; error?: string };

/** A #RRGGBB colour: a picker and the text, kept in step; the text may be typed freely. */
export function ColorField({ label, value, onChange, error }: ColorFieldProps) {
  return (
    <FormField label={label} error={error}>
      {(p) => (
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={isHexColor(value) ? value.toLowerCase() : "#000000"}
            onChange={(e) => onChange(e.target.value.toUpperCase())}
            className="h-9 w-11 shrink-0 cursor-pointer rounded-md border border-zinc-300 bg-white p-1"
          />
          <input
            {...p}
            value={value}
            onChange={(e) => onChange(e.target.value.trim())}
            maxLength={7}
            spellCheck={false}
            placeholder="#RRGGBB"
            // Wide enough for "#RRGGBB" whatever the font: 7 characters, the padding and a caret.
            className={`${inputClasses.replace("w-full", "")} w-[calc(8ch+2rem)] shrink-0 font-mono uppercase`}
          />
        </div>
      )}
    </FormField>
  );
}
