import { Box, Flex, Heading, Tabs, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { ClaimsTab } from "./ClaimsTab";
import { LoadFailed } from "./LoadFailed";
import { MicsTab } from "./MicsTab";
import { ReportsTab } from "./ReportsTab";

type Tab = "mics" | "claims" | "reports";

/** /admin: the Mics (default), Claims and Reports tabs, every list live. */
export function AdminDashboard() {
  const [tab, setTab] = useState<Tab>("mics");
  const [search, setSearch] = useState("");
  const [editingId, setEditingId] = useState<Id<"sceneItems"> | null>(null);
  // The report an admin chose to fix by editing its mic; resolved once the edit is saved.
  const [fixing, setFixing] = useState<{ micId: Id<"sceneItems">; reportId: Id<"problemReports"> } | null>(null);
  const resolveReport = useMutation(api.reports.resolve);

  const editFromReport = (micId: Id<"sceneItems">, reportId: Id<"problemReports">) => {
    setSearch("");
    setEditingId(micId);
    setFixing({ micId, reportId });
    setTab("mics");
  };

  const onSaved = (micId: Id<"sceneItems">) => {
    if (fixing === null || fixing.micId !== micId) return;
    const { reportId } = fixing;
    setFixing(null);
    resolveReport({ id: reportId, action: "edited" }).catch((error: unknown) => {
      console.error("Failed to resolve report", error);
      toast.error("Failed to update report");
    });
  };

  return (
    <Flex direction="column" gap="5">
      <Box>
        <Heading as="h1" size="8">
          Admin Dashboard
        </Heading>
        <Text as="p" size="3" color="gray">
          Manage comedy mics and review claims
        </Text>
      </Box>
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)}>
        <Tabs.List>
          <Tabs.Trigger value="mics">Mics</Tabs.Trigger>
          <Tabs.Trigger value="claims">Claims</Tabs.Trigger>
          <Tabs.Trigger value="reports">Reports</Tabs.Trigger>
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="mics">
            <ErrorBoundary fallback={<LoadFailed message="Failed to load mics" />}>
              <MicsTab
                search={search}
                onSearchChange={setSearch}
                editingId={editingId}
                onEdit={(id) => {
                  setEditingId(id);
                  if (id === null || id !== fixing?.micId) setFixing((f) => (id === null ? f : null));
                }}
                onSaved={onSaved}
              />
            </ErrorBoundary>
          </Tabs.Content>
          <Tabs.Content value="claims">
            <ErrorBoundary fallback={<LoadFailed message="Failed to load claims" />}>
              <ClaimsTab />
            </ErrorBoundary>
          </Tabs.Content>
          <Tabs.Content value="reports">
            <ErrorBoundary fallback={<LoadFailed message="Failed to load reports" />}>
              <ReportsTab onEditMic={editFromReport} />
            </ErrorBoundary>
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    </Flex>
  );
}
