import { UploadIcon } from "@radix-ui/react-icons";
import { PHOTO_CONTENT_TYPES } from "@convex/lib/photo";
import { Avatar, Button, Flex, Text } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useRef, useState, type ChangeEvent } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { initials } from "@/lib/format";
import { photoProblem } from "./profileSchema";

/**
 * The profile photo and its upload button. The file is checked here (an
 * image, under 5 MB) before it is sent, then stored in Convex file storage
 * and checked again by the server, which deletes the previous photo.
 */
export function AvatarUpload({ photoUrl, displayName }: { photoUrl: string | null; displayName: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const generateUploadUrl = useMutation(api.profiles.generatePhotoUploadUrl);
  const setPhoto = useMutation(api.profiles.setPhoto);

  const upload = async (file: File) => {
    const problem = photoProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      const url = await generateUploadUrl();
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": file.type },
        body: file,
      });
      if (!response.ok) throw new Error(`Upload failed with status ${response.status}`);
      const { storageId } = (await response.json()) as { storageId: Id<"_storage"> };
      const result = await setPhoto({ storageId });
      if (result.ok) toast.success("Photo updated");
      else toast.error(result.message);
    } catch (err) {
      console.error(err);
      toast.error("Failed to upload photo");
    } finally {
      setBusy(false);
    }
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Clear the input so choosing the same file again still fires a change.
    event.target.value = "";
    if (file) void upload(file);
  };

  return (
    <Flex align="center" gap="4" wrap="wrap">
      <Avatar
        size="7"
        radius="full"
        src={photoUrl ?? undefined}
        fallback={initials(displayName)}
        alt={photoUrl ? "Your profile photo" : ""}
      />
      <Flex direction="column" gap="2">
        <input
          ref={inputRef}
          type="file"
          accept={PHOTO_CONTENT_TYPES.join(",")}
          aria-label="Profile photo"
          onChange={onChange}
          style={{ display: "none" }}
        />
        <Button type="button" variant="soft" loading={busy} onClick={() => inputRef.current?.click()}>
          <UploadIcon aria-hidden="true" /> {photoUrl ? "Change photo" : "Upload photo"}
        </Button>
        <Text size="1" color="gray">
          An image under 5MB.
        </Text>
      </Flex>
    </Flex>
  );
}
