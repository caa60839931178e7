import { MagnifyingGlassIcon } from "@radix-ui/react-icons";
import { Box, Flex, ScrollArea, Spinner, Text, TextField } from "@radix-ui/themes";
import { useId, useState, type KeyboardEvent } from "react";
import { moveHighlight } from "./combobox";

export type ComboOption = { key: string; primary: string; secondary?: string };

type VenueComboboxProps = {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: ComboOption[];
  onPick: (option: ComboOption) => void;
  loading?: boolean;
  /** Shown under the input when there are no options (a hint or 'No venues found...'). */
  message?: string | null;
  placeholder?: string;
  autoFocus?: boolean;
};

/**
 * A text box with a list of suggestions, following the WAI-ARIA combobox
 * pattern: arrow keys move through the options, Enter picks, Escape closes.
 * The list is at most 15rem tall.
 */
export function VenueCombobox({
  label,
  value,
  onValueChange,
  options,
  onPick,
  loading,
  message,
  placeholder = "Venue name",
  autoFocus,
}: VenueComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const messageId = `${id}-message`;
  const [highlight, setHighlight] = useState(-1);
  const [closed, setClosed] = useState(false);
  const open = !closed && options.length > 0;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setClosed(false);
      setHighlight((h) => moveHighlight(h, event.key as "ArrowDown" | "ArrowUp", options.length));
    } else if (event.key === "Enter") {
      if (open && highlight >= 0 && highlight < options.length) {
        event.preventDefault();
        onPick(options[highlight]);
      }
    } else if (event.key === "Escape") {
      setClosed(true);
      setHighlight(-1);
    }
  };

  return (
    <Flex direction="column" gap="1" position="relative">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root
        id={id}
        size="3"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && highlight >= 0 ? `${listId}-${highlight}` : undefined}
        aria-describedby={message ? messageId : undefined}
        placeholder={placeholder}
        autoFocus={autoFocus}
        value={value}
        onChange={(e) => {
          onValueChange(e.target.value);
          setClosed(false);
          setHighlight(-1);
        }}
        onKeyDown={onKeyDown}
      >
        <TextField.Slot>
          <MagnifyingGlassIcon aria-hidden="true" />
        </TextField.Slot>
        {loading ? (
          <TextField.Slot>
            <Spinner aria-label="Searching" />
          </TextField.Slot>
        ) : null}
      </TextField.Root>
      {open ? (
        <Box
          style={{
            border: "1px solid var(--gray-a6)",
            borderRadius: "var(--radius-3)",
            background: "var(--color-panel-solid)",
            boxShadow: "var(--shadow-3)",
          }}
        >
          <ScrollArea type="auto" scrollbars="vertical" style={{ maxHeight: "15rem" }}>
            <Box asChild m="0" p="1">
              <ul role="listbox" id={listId} aria-label={`${label} suggestions`} style={{ listStyle: "none" }}>
                {options.map((option, i) => (
                  <li
                    key={option.key}
                    id={`${listId}-${i}`}
                    role="option"
                    aria-selected={i === highlight}
                    onMouseEnter={() => setHighlight(i)}
                    // mousedown keeps focus in the input until the pick is made.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => onPick(option)}
                    style={{
                      cursor: "pointer",
                      padding: "var(--space-3)",
                      minHeight: 44,
                      borderRadius: "var(--radius-2)",
                      background: i === highlight ? "var(--accent-a4)" : undefined,
                    }}
                  >
                    <Text as="div" size="3" weight="medium">
                      {option.primary}
                    </Text>
                    {option.secondary ? (
                      <Text as="div" size="2" color="gray">
                        {option.secondary}
                      </Text>
                    ) : null}
                  </li>
                ))}
              </ul>
            </Box>
          </ScrollArea>
        </Box>
      ) : null}
      {!open && message ? (
        <Text id={messageId} size="2" color="gray" role="status">
          {message}
        </Text>
      ) : null}
    </Flex>
  );
}
