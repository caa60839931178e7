import { Cross2Icon, PlusIcon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, IconButton, Text, TextField } from "@radix-ui/themes";
import { useId, useState } from "react";
import { addTags, remainingSuggestions, removeTag, splitTypedTags } from "./tags";

type TagInputProps = { value: string[]; onChange: (tags: string[]) => void };

/** Tags of a set: typed (Enter or comma adds), removable chips, quick-add suggestions. */
export function TagInput({ value, onChange }: TagInputProps) {
  const id = useId();
  const [text, setText] = useState("");
  const suggestions = remainingSuggestions(value);
  return (
    <Flex direction="column" gap="2">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        Tags
      </Text>
      <TextField.Root
        id={id}
        size="3"
        value={text}
        placeholder="Type a tag and press Enter"
        aria-describedby={`${id}-hint`}
        enterKeyHint="enter"
        onChange={(e) => {
          const { tags, rest } = splitTypedTags(value, e.target.value);
          if (tags.length !== value.length) onChange(tags);
          setText(rest);
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            // Enter adds the tag instead of submitting the form.
            e.preventDefault();
            onChange(addTags(value, text));
            setText("");
          } else if (e.key === "Backspace" && text === "" && value.length > 0) {
            onChange(value.slice(0, -1));
          }
        }}
        onBlur={() => {
          if (text.trim() !== "") {
            onChange(addTags(value, text));
            setText("");
          }
        }}
      />
      <Text id={`${id}-hint`} size="1" color="gray">
        Separate tags with Enter or a comma.
      </Text>
      {value.length > 0 ? (
        <Flex gap="2" wrap="wrap" role="list" aria-label="Tags on this set">
          {value.map((tag) => (
            <Badge key={tag} size="3" variant="soft" radius="full" role="listitem">
              {tag}
              <IconButton
                type="button"
                size="1"
                variant="ghost"
                radius="full"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(removeTag(value, tag))}
              >
                <Cross2Icon aria-hidden="true" />
              </IconButton>
            </Badge>
          ))}
        </Flex>
      ) : null}
      {suggestions.length > 0 ? (
        <Flex gap="2" wrap="wrap" aria-label="Quick-add tags" role="group">
          {suggestions.map((tag) => (
            <Button
              key={tag}
              type="button"
              size="2"
              variant="outline"
              radius="full"
              onClick={() => onChange(addTags(value, tag))}
            >
              <PlusIcon aria-hidden="true" /> {tag}
            </Button>
          ))}
        </Flex>
      ) : null}
    </Flex>
  );
}
