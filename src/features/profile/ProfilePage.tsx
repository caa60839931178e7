import { ExitIcon } from "@radix-ui/react-icons";
import { Box, Button, Callout, Card, Flex, Heading, Link, Text } from "@radix-ui/themes";
import { useMutation, useQuery } from "convex/react";
import { format } from "date-fns";
import { useEffect } from "react";
import { Link as RouterLink } from "@/lib/router";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { isDefaultStageName, MAX_DEFAULT_CITY_LENGTH, MAX_DISPLAY_NAME_LENGTH } from "@convex/lib/profileRules";
import { useSignOut } from "@/components/auth/useSignOut";
import { BackToDashboardLink } from "@/components/BackToDashboardLink";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { Form, FormSubmit, FormTextField } from "@/components/form";
import { LoadingState } from "@/components/LoadingState";
import { NotificationSettings } from "@/components/notifications/NotificationSettings";
import { errorCode, errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { AccountActions } from "./AccountActions";
import { AvatarUpload } from "./AvatarUpload";
import { PROFILE_GOAL_HINT, profileSchema, type ProfileValues } from "./profileSchema";

function ProfileForm({ initial }: { initial: ProfileValues }) {
  const update = useMutation(api.profiles.update);
  const onSubmit = async (values: ProfileValues) => {
    try {
      await update({
        displayName: values.displayName,
        weeklyGoalMinutes: values.weeklyGoalMinutes,
        defaultCity: values.defaultCity,
      });
      toast.success("Profile updated");
    } catch (err) {
      console.error(err);
      const detail = errorCode(err) === "INVALID_INPUT" ? errorMessage(err, "") : undefined;
      toast.error("Failed to update profile", detail ? { description: detail } : undefined);
    }
  };
  return (
    <Form schema={profileSchema} defaultValues={initial} onSubmit={onSubmit} aria-label="Profile">
      <FormTextField
        name="displayName"
        label="Display name"
        hint="The name hosts call you up by, shown on live lists."
        autoComplete="nickname"
        required
        maxLength={MAX_DISPLAY_NAME_LENGTH}
      />
      <FormTextField
        name="weeklyGoalMinutes"
        label="Weekly goal (minutes)"
        type="number"
        hint={PROFILE_GOAL_HINT}
        required
      />
      <FormTextField
        name="defaultCity"
        label="Default city"
        autoComplete="address-level2"
        placeholder="e.g. Austin"
        maxLength={MAX_DEFAULT_CITY_LENGTH}
      />
      <Flex>
        <FormSubmit size="2">Save Changes</FormSubmit>
      </Flex>
    </Form>
  );
}

function LiveProfile() {
  const me = useQuery(api.profiles.me);
  const signOut = useSignOut();
  if (me === undefined) return <LoadingState label="Loading your profile…" />;
  if (me === null) {
    return (
      <Flex direction="column" gap="3" align="start">
        <Heading as="h1" size="7">
          Profile not found
        </Heading>
        <BackToDashboardLink />
      </Flex>
    );
  }
  return (
    <Flex direction="column" gap="5">
      <Box>
        <BackToDashboardLink />
        <Heading as="h1" size="8" mt="2">
          Profile
        </Heading>
        <Text as="p" size="2" color="gray" mt="1">
          Member since {format(new Date(me.memberSince), "MMMM yyyy")}
        </Text>
        <Link asChild size="2" mt="1">
          <RouterLink to={paths.season}>Your season in review</RouterLink>
        </Link>
      </Box>
      <Card size="3">
        <Flex direction="column" gap="4">
          <AvatarUpload photoUrl={me.photoUrl} displayName={me.displayName} />
          {me.email ? (
            <Text size="2" color="gray">
              Signed in as {me.email}
            </Text>
          ) : null}
          <ProfileForm
            initial={{
              // No stage name chosen yet: an empty field asks for one.
              displayName: isDefaultStageName(me.displayName) ? "" : me.displayName,
              weeklyGoalMinutes: me.weeklyGoalMinutes,
              defaultCity: me.defaultCity ?? "",
            }}
          />
        </Flex>
      </Card>
      <NotificationSettings />
      <AccountActions />
      <Flex>
        <Button type="button" variant="outline" color="gray" onClick={() => void signOut()}>
          <ExitIcon aria-hidden="true" /> Sign Out
        </Button>
      </Flex>
    </Flex>
  );
}

function LoadError() {
  useEffect(() => {
    toast.error("Failed to load profile", { id: "profile-load" });
  }, []);
  return (
    <Flex direction="column" gap="3">
      <Callout.Root color="red" role="alert">
        <Callout.Text>Failed to load profile. Please reload the page.</Callout.Text>
      </Callout.Root>
      <BackToDashboardLink />
    </Flex>
  );
}

/** /profile: photo, name, weekly goal, default city, export and deletion, sign-out. */
export function ProfilePage() {
  return (
    <ErrorBoundary fallback={<LoadError />}>
      <LiveProfile />
    </ErrorBoundary>
  );
}
