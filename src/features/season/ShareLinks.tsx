import { Button, Card, Checkbox, Code, Flex, Heading, IconButton, Text } from "@radix-ui/themes";
import { CopyIcon } from "@radix-ui/react-icons";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { useController } from "react-hook-form";
import { z } from "zod";
import { api } from "@convex/_generated/api";
import { SHARE_FIELDS, type SeasonPeriod, type ShareField } from "@convex/lib/season";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit } from "@/components/form";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";
import { SHARE_FIELDS_REQUIRED } from "./periodSchema";
import { periodLabel, SHARE_FIELD_LABELS } from "./seasonText";

const shareSchema = z.object({ fields: z.array(z.enum(SHARE_FIELDS)).min(1, SHARE_FIELDS_REQUIRED) });

function FieldChoices() {
  const { field, fieldState } = useController<{ fields: ShareField[] }, "fields">({ name: "fields" });
  const chosen = new Set(field.value);
  return (
    <Flex direction="column" gap="2" role="group" aria-label="Numbers to show">
      {SHARE_FIELDS.map((f) => (
        <Text as="label" size="2" key={f}>
          <Flex gap="2" align="center">
            <Checkbox
              checked={chosen.has(f)}
              onCheckedChange={(on) =>
                field.onChange(SHARE_FIELDS.filter((x) => (x === f ? on === true : chosen.has(x))))
              }
            />
            {SHARE_FIELD_LABELS[f]}
          </Flex>
        </Text>
      ))}
      {fieldState.error ? (
        <Text size="2" color="red" role="alert">
          {fieldState.error.message}
        </Text>
      ) : null}
    </Flex>
  );
}

function linkOf(token: string): string {
  return `${window.location.origin}${paths.seasonShared(token)}`;
}

function NewLinkButton({ period }: { period: SeasonPeriod }) {
  const [open, setOpen] = useState(false);
  const create = useMutation(api.season.createShare);
  return (
    <DialogShell
      trigger={<Button variant="soft">Make a public link</Button>}
      title="Make a public link"
      description={`Anyone with the link sees your ${periodLabel(period)} season: only the numbers you tick. You can revoke it at any time.`}
      maxWidth="440px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={shareSchema}
        defaultValues={{ fields: ["sets", "minutes"] }}
        aria-label="Public link"
        onSubmit={async ({ fields }) => {
          try {
            await create({ ...period, fields });
            setOpen(false);
            toast.success("Public link made");
          } catch (err) {
            toast.error(errorMessage(err, "Could not make the link. Please try again."));
          }
        }}
      >
        <FieldChoices />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit>Make link</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

/** The comedian's public links to their seasons: none until they make one; each can be copied or revoked. */
export function ShareLinks({ period }: { period: SeasonPeriod }) {
  const shares = useQuery(api.season.shares);
  const revoke = useMutation(api.season.revokeShare);
  return (
    <Card size="2" asChild>
      <section aria-label="Public links">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            Public links
          </Heading>
          {shares === undefined ? (
            <Text size="2" color="gray">
              Loading your links…
            </Text>
          ) : shares.length === 0 ? (
            <Text size="2" color="gray">
              Your season is private. Make a link to show chosen numbers to anyone who has it.
            </Text>
          ) : (
            <Flex direction="column" gap="3" asChild>
              <ul aria-label="Your public links" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {shares.map((s) => (
                  <li key={s.id}>
                    <Flex direction="column" gap="1">
                      <Text size="2" weight="medium">
                        {`${periodLabel(s)}: ${s.fields.map((f) => SHARE_FIELD_LABELS[f]).join(", ")}`}
                      </Text>
                      <Flex gap="2" align="center" wrap="wrap">
                        <Code size="1" style={{ overflowWrap: "anywhere", minWidth: 0 }} data-testid="share-link">
                          {linkOf(s.token)}
                        </Code>
                        <IconButton
                          variant="ghost"
                          aria-label={`Copy the ${periodLabel(s)} link`}
                          onClick={() =>
                            void navigator.clipboard
                              .writeText(linkOf(s.token))
                              .then(() => toast.success("Link copied"))
                              .catch(() => toast.error("Could not copy. Select the link and copy it."))
                          }
                        >
                          <CopyIcon aria-hidden="true" />
                        </IconButton>
                        <ConfirmDialog
                          trigger={
                            <Button size="1" variant="ghost" color="red">
                              Revoke
                            </Button>
                          }
                          title="Revoke this link?"
                          description="Anyone who opens it will see that it no longer works."
                          confirmLabel="Revoke link"
                          onConfirm={async () => {
                            try {
                              await revoke({ id: s.id });
                              toast.success("Link revoked");
                              return true;
                            } catch (err) {
                              toast.error(errorMessage(err, "Could not revoke the link. Please try again."));
                              return false;
                            }
                          }}
                        />
                      </Flex>
                    </Flex>
                  </li>
                ))}
              </ul>
            </Flex>
          )}
          <div>
            <NewLinkButton period={period} />
          </div>
        </Flex>
      </section>
    </Card>
  );
}
