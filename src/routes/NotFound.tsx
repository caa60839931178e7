import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link as RouterLink } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { paths } from "@/lib/paths";

export default function NotFound() {
  return (
    <PageContainer size="2">
      <Flex direction="column" align="center" gap="4" py="9" style={{ textAlign: "center" }}>
        <Heading as="h1" size="9">
          404
        </Heading>
        <Text as="p" size="5" color="gray">
          Oops! Page not found
        </Text>
        <Button asChild size="3">
          <RouterLink to={paths.home}>Return to Home</RouterLink>
        </Button>
      </Flex>
    </PageContainer>
  );
}
