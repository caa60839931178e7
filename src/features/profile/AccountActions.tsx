import { useAuthActions } from "@/lib/authActions";
import { DownloadIcon, TrashIcon } from "@radix-ui/react-icons";
import { AlertDialog, Button, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes";
import { useConvex, useMutation } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { FormActions } from "@/components/FormActions";
import { downloadBlob } from "@/lib/download";
import { clearLocalSessionState } from "@/lib/session";
import { useLeaveHome } from "@/components/auth/useSignOut";

export const EXPORT_FILE_NAME = "stagetime-export.json";
const CONFIRM_WORD = "DELETE";

/** Saves `data` as a JSON file (the browser gets 10 s to start the download before the URL goes). */
function downloadJson(data: unknown, fileName: string): void {
  downloadBlob(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), fileName, 10_000);
}

function ExportDataButton() {
  const convex = useConvex();
  const [busy, setBusy] = useState(false);
  const onExport = async () => {
    setBusy(true);
    try {
      const data = await convex.query(api.account.exportData, {});
      downloadJson({ exportedAt: new Date().toISOString(), ...data }, EXPORT_FILE_NAME);
      toast.success("Data exported", { description: `Saved as ${EXPORT_FILE_NAME}.` });
    } catch (err) {
      console.error(err);
      toast.error("Failed to export data");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="button" variant="soft" loading={busy} onClick={() => void onExport()}>
      <DownloadIcon aria-hidden="true" /> Export Data
    </Button>
  );
}

function DeleteAccountButton() {
  const deleteAccount = useMutation(api.account.deleteAccount);
  const { signOut } = useAuthActions();
  const leaveHome = useLeaveHome();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const inputId = useId();

  const onDelete = async () => {
    setBusy(true);
    try {
      await deleteAccount({ confirm: CONFIRM_WORD });
    } catch (err) {
      console.error(err);
      toast.error("Failed to delete account", { description: "Please try again." });
      setBusy(false);
      return;
    }
    toast.success("Account deleted");
    await leaveHome(async () => {
      clearLocalSessionState();
      try {
        await signOut();
      } catch (err) {
        // The account and its sessions are already gone; the local sign-out is what matters.
        console.error("Sign-out after account deletion failed", err);
      }
    });
  };

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setTyped("");
      }}
    >
      <AlertDialog.Trigger>
        <Button type="button" color="red" variant="soft">
          <TrashIcon aria-hidden="true" /> Delete Account
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="460px">
        <AlertDialog.Title>Delete your account?</AlertDialog.Title>
        <AlertDialog.Description size="2">
          This removes your sets, schedule, favorites, check-ins, badges, claims and photo, and signs you out. Mics you
          added stay in the scene for everyone. This cannot be undone.
        </AlertDialog.Description>
        <Flex direction="column" gap="1" mt="3">
          <Text as="label" htmlFor={inputId} size="2" weight="medium">
            Type {CONFIRM_WORD} to confirm
          </Text>
          <TextField.Root
            id={inputId}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
        </Flex>
        <FormActions cancel="alert" cancelDisabled={busy} mt="4">
          <Button color="red" disabled={typed !== CONFIRM_WORD} loading={busy} onClick={() => void onDelete()}>
            Delete my account
          </Button>
        </FormActions>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

/** Export Data and Delete Account. */
export function AccountActions() {
  return (
    <Card size="3">
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          Your data
        </Heading>
        <Text size="2" color="gray">
          Download everything you have logged as a JSON file, or delete your account.
        </Text>
        <Flex gap="3" wrap="wrap">
          <ExportDataButton />
          <DeleteAccountButton />
        </Flex>
      </Flex>
    </Card>
  );
}
