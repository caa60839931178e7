import { Badge, Button, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { useState } from "react";
import { Link as RouterLink, useNavigate } from "@/lib/router";
import { z } from "zod";
import { api } from "@convex/_generated/api";
import { MAX_SET_LIST_TITLE_LENGTH, SET_LIST_TITLE_REQUIRED, SET_LIST_TITLE_TOO_LONG } from "@convex/lib/bitRules";
import { DialogShell } from "@/components/DialogShell";
import { EmptyState } from "@/components/EmptyState";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { LoadingState } from "@/components/LoadingState";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { toast } from "@/lib/toast";

export const setListTitleSchema = z.object({
  title: z.string().trim().min(1, SET_LIST_TITLE_REQUIRED).max(MAX_SET_LIST_TITLE_LENGTH, SET_LIST_TITLE_TOO_LONG),
});

function NewSetListButton() {
  const [open, setOpen] = useState(false);
  const create = useMutation(api.setLists.create);
  const navigate = useNavigate();
  return (
    <DialogShell
      trigger={<Button>New set list</Button>}
      title="New set list"
      description="Name it for the night or the kind of set."
      maxWidth="440px"
      open={open}
      onOpenChange={setOpen}
    >
      <Form
        schema={setListTitleSchema}
        defaultValues={{ title: "" }}
        aria-label="New set list"
        onSubmit={async ({ title }) => {
          try {
            const id = await create({ title, bitIds: [] });
            setOpen(false);
            navigate(paths.setList(id));
          } catch (err) {
            toast.error(errorMessage(err, "Could not make the set list. Please try again."));
          }
        }}
      >
        <FormTextField name="title" label="Name" required maxLength={MAX_SET_LIST_TITLE_LENGTH} />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit>Create</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

function Lists() {
  const lists = useQuery(api.setLists.list);
  if (lists === undefined) return <LoadingState variant="skeleton" label="Loading your set lists" rows={3} />;
  if (lists.length === 0) {
    return (
      <EmptyState
        title="No set lists yet"
        description="Build tonight's set from your bits, attach it to the night, and rate each bit after."
        action={<NewSetListButton />}
      />
    );
  }
  return (
    <Flex direction="column" gap="2" asChild>
      <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Your set lists">
        {lists.map((l) => (
          <li key={l._id}>
            <Card size="2" asChild>
              <RouterLink to={paths.setList(l._id)} aria-label={l.title}>
                <Flex justify="between" align="center" gap="2">
                  <Flex direction="column" minWidth="0">
                    <Text weight="bold" style={{ overflowWrap: "anywhere" }}>
                      {l.title}
                    </Text>
                    <Text size="2" color="gray">
                      {l.bitCount} {l.bitCount === 1 ? "bit" : "bits"}
                      {l.night ? ` · ${l.night.micTitle}, ${l.night.date}` : ""}
                    </Text>
                  </Flex>
                  {l.night ? <Badge highContrast>For a night</Badge> : null}
                </Flex>
              </RouterLink>
            </Card>
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** /set-lists: the comedian's set lists, newest first. */
export function SetListsPage() {
  return (
    <Flex direction="column" gap="4">
      <Link asChild size="2">
        <RouterLink to={paths.bits}>All bits</RouterLink>
      </Link>
      <Flex justify="between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="8">
          Set lists
        </Heading>
        <NewSetListButton />
      </Flex>
      <ErrorBoundary fallback={<EmptyState title="Your set lists could not be loaded" />}>
        <Lists />
      </ErrorBoundary>
    </Flex>
  );
}
