import { Heading } from "@radix-ui/themes";
import { PageContainer } from "@/components/PageContainer";

/** Placeholder until the scene feature lands (owned by the scene work). */
export default function ScenePage() {
  return (
    <PageContainer>
      <Heading as="h1">Comedy Scene</Heading>
    </PageContainer>
  );
}
