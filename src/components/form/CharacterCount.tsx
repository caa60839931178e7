import { Text } from "@radix-ui/themes";
import { useWatch } from "react-hook-form";

/** Shown from this share of a field's cap on. */
const NEAR_CAP = 0.8;

/** "1,950 / 2,000 characters" under a capped field once its text nears the cap; red past it. */
export function CharacterCount({ length, max, id }: { length: number; max: number; id?: string }) {
  if (length < Math.floor(max * NEAR_CAP)) return null;
  return (
    <Text id={id} size="1" color={length > max ? "red" : "gray"} aria-live="polite">
      {length.toLocaleString("en-US")} / {max.toLocaleString("en-US")} characters
    </Text>
  );
}

/** {@link CharacterCount} for a text field of the surrounding <Form>. */
export function FieldCharacterCount({ name, max, id }: { name: string; max: number; id?: string }) {
  const value: unknown = useWatch({ name });
  return <CharacterCount length={typeof value === "string" ? value.length : 0} max={max} id={id} />;
}
