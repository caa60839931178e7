import { MagnifyingGlassIcon, UpdateIcon } from "@radix-ui/react-icons";
import { Badge, Button, Flex, Text, TextField } from "@radix-ui/themes";
import { useAction, useQuery } from "convex/react";
import { useDeferredValue, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { LoadingState } from "@/components/LoadingState";
import { coordinatesToast, micsCount } from "./adminText";
import { MicCard } from "./MicCard";

function FixCoordinatesButton() {
  const fixCoordinates = useAction(api.geocode.fixCoordinates);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    try {
      const result = await fixCoordinates({});
      if (result.failures.length > 0) console.error("Coordinates not found", result.failures);
      const spec = coordinatesToast(result.updated, result.failed);
      toast.success(spec.title, { description: spec.description });
    } catch (error) {
      console.error("Failed to update venue coordinates", error);
      toast.error("Failed to update venue coordinates");
    } finally {
      setRunning(false);
    }
  };
  return (
    <Button variant="soft" onClick={() => void run()} disabled={running}>
      <UpdateIcon aria-hidden="true" />
      {running ? "Updating..." : "Fix Coordinates"}
    </Button>
  );
}

type MicsTabProps = {
  search: string;
  onSearchChange: (search: string) => void;
  editingId: Id<"sceneItems"> | null;
  onEdit: (id: Id<"sceneItems"> | null) => void;
  /** Called after an edit was saved. */
  onSaved: (id: Id<"sceneItems">) => void;
};

/** Every mic, live: search, count, Fix Coordinates and the cards. */
export function MicsTab({ search, onSearchChange, editingId, onEdit, onSaved }: MicsTabProps) {
  const deferredSearch = useDeferredValue(search.trim());
  const mics = useQuery(api.admin.listMics, deferredSearch ? { search: deferredSearch } : {});
  return (
    <Flex direction="column" gap="4">
      <Flex direction={{ initial: "column", sm: "row" }} gap="3" align={{ sm: "center" }}>
        <TextField.Root
          placeholder="Search mics, venues, or cities..."
          aria-label="Search mics, venues, or cities"
          value={search}
          onChange={(e) => onSearchChange(e.target.value)}
          style={{ flexGrow: 1 }}
        >
          <TextField.Slot>
            <MagnifyingGlassIcon aria-hidden="true" />
          </TextField.Slot>
        </TextField.Root>
        <Flex gap="3" align="center" justify="between">
          <Badge size="2" variant="soft">
            {mics === undefined ? "…" : micsCount(mics.length)}
          </Badge>
          <FixCoordinatesButton />
        </Flex>
      </Flex>
      {mics === undefined ? (
        <LoadingState variant="skeleton" label="Loading mics…" />
      ) : mics.length === 0 ? (
        <Text as="p" color="gray" align="center" my="6">
          No mics found matching your search.
        </Text>
      ) : (
        <Flex direction="column" gap="3">
          {mics.map((mic) => (
            <MicCard
              key={mic._id}
              mic={mic}
              editing={editingId === mic._id}
              onEdit={() => onEdit(mic._id)}
              onDone={(saved) => {
                onEdit(null);
                if (saved) onSaved(mic._id);
              }}
            />
          ))}
        </Flex>
      )}
    </Flex>
  );
}
